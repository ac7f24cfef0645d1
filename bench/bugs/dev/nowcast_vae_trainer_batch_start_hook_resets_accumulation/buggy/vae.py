import torch
import torch.nn as nn


class DiagonalGaussian:
    def __init__(self, moments):
        self.mean, logvar = moments.chunk(2, dim=1)
        self.logvar = logvar.clamp(-30.0, 20.0)
        self.std = torch.exp(0.5 * self.logvar)

    def sample(self):
        return self.mean + self.std * torch.randn_like(self.std)

    def kl(self):
        return 0.5 * (self.mean.pow(2) + self.logvar.exp() - 1.0 - self.logvar).sum(dim=(1, 2, 3))


class FrameVAE(nn.Module):
    def __init__(self, latent_channels=4, width=16):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.SiLU(),
            nn.Conv2d(width, width, 4, stride=2, padding=1), nn.SiLU(),
            nn.Conv2d(width, 2 * latent_channels, 3, padding=1),
        )
        self.decoder = nn.Sequential(
            nn.Conv2d(latent_channels, width, 3, padding=1), nn.SiLU(),
            nn.ConvTranspose2d(width, width, 4, stride=2, padding=1), nn.SiLU(),
            nn.Conv2d(width, 1, 3, padding=1),
        )

    def forward(self, x):
        posterior = DiagonalGaussian(self.encoder(x))
        return self.decoder(posterior.sample()), posterior
