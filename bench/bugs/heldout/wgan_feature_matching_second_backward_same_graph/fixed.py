"""GAN on short 1-D waveforms with an extra feature-matching term on the generator (BaseGAN style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, z_dim=16, length=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 128), nn.LeakyReLU(0.2), nn.Linear(128, length), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, length=64):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(length, 128), nn.LeakyReLU(0.2), nn.Linear(128, 64), nn.LeakyReLU(0.2))
        self.out = nn.Linear(64, 1)

    def forward(self, x):
        f = self.features(x)
        return self.out(f), f


class BaseGAN:
    def __init__(self, z_dim=16, length=64, lr=2e-4, fm_weight=1.0):
        self.z_dim = z_dim
        self.netG, self.netD = Generator(z_dim, length), Discriminator(length)
        self.optG = torch.optim.Adam(self.netG.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optD = torch.optim.Adam(self.netD.parameters(), lr=lr, betas=(0.5, 0.999))
        self.fm_weight = fm_weight

    def optimize_d(self, real):
        self.optD.zero_grad()
        fake = self.netG(torch.randn(len(real), self.z_dim)).detach()
        pred_real, _ = self.netD(real)
        pred_fake, _ = self.netD(fake)
        loss_d = F.softplus(-pred_real).mean() + F.softplus(pred_fake).mean()
        loss_d.backward()
        self.optD.step()
        return loss_d.item()

    def optimize_g(self, real):
        self.optG.zero_grad()
        fake = self.netG(torch.randn(len(real), self.z_dim))
        pred_fake, feat_fake = self.netD(fake)
        loss_g_fake = F.softplus(-pred_fake).mean()
        with torch.no_grad():
            _, feat_real = self.netD(real)
        loss_fm = F.mse_loss(feat_fake.mean(0), feat_real.mean(0)) * self.fm_weight
        (loss_g_fake + loss_fm).backward()
        self.optG.step()
        return loss_g_fake.item(), loss_fm.item()


def real_waveforms(n, length=64):
    t = torch.linspace(0, 1, length)
    freq = torch.randint(2, 6, (n, 1)).float()
    phase = torch.rand(n, 1) * 6.28
    return torch.sin(2 * 3.1416 * freq * t + phase)


if __name__ == "__main__":
    gan = BaseGAN()
    for it in range(20):
        real = real_waveforms(32)
        loss_d = gan.optimize_d(real)
        loss_g, loss_fm = gan.optimize_g(real)
        if it % 5 == 0:
            print(f"it {it} D {loss_d:.3f} G {loss_g:.3f} FM {loss_fm:.3f}")
