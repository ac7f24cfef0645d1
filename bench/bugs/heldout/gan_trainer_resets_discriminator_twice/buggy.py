import torch
from torch import nn


class GANTrainer:
    def __init__(self, latent_dim: int = 16, data_dim: int = 2) -> None:
        self.latent_dim = latent_dim
        self.G = nn.Sequential(nn.Linear(latent_dim, 32), nn.ReLU(), nn.Linear(32, data_dim))
        self.D = nn.Sequential(nn.Linear(data_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.bce = nn.BCEWithLogitsLoss()

    def step(self, real: torch.Tensor):
        z = torch.randn(real.size(0), self.latent_dim)
        fake = self.G(z)

        self.opt_d.zero_grad()
        d_real, d_fake = self.D(real), self.D(fake.detach())
        d_loss = self.bce(d_real, torch.ones_like(d_real)) + self.bce(d_fake, torch.zeros_like(d_fake))
        d_loss.backward()
        self.opt_d.step()

        self.opt_d.zero_grad()
        g_out = self.D(fake)
        g_loss = self.bce(g_out, torch.ones_like(g_out))
        g_loss.backward()
        self.opt_g.step()
        return d_loss.item(), g_loss.item()


if __name__ == "__main__":
    trainer = GANTrainer()
    ring = torch.randn(256, 2)
    ring = ring / ring.norm(dim=1, keepdim=True)
    for it, real in enumerate(ring.split(32)):
        d, g = trainer.step(real)
        print(f"{it}: d {d:.3f} g {g:.3f}")
