import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, in_dim=64, latent=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, 2 * latent))
        self.dec = nn.Sequential(nn.Linear(latent, 32), nn.ReLU(), nn.Linear(32, in_dim))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


def vae_loss(recon, x, mu, logvar, kl_weight=1e-3):
    rec = F.mse_loss(recon, x)
    kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
    return rec + kl_weight * kl


def train(model, micro_batches, grad_accum=4, epochs=2, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.5, 0.9))
    for epoch in range(epochs):
        for i, x in enumerate(micro_batches):
            recon, mu, logvar = model(x)
            loss = vae_loss(recon, x, mu, logvar) / grad_accum
            loss.backward()
            if (i + 1) % grad_accum == 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                opt.step()
                opt.zero_grad()
        print(epoch, loss.item() * grad_accum)


if __name__ == "__main__":
    torch.manual_seed(0)
    batches = [torch.randn(4, 64) for _ in range(8)]
    train(VAE(), batches)
