import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, in_ch=1, ch=16, latent=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(in_ch, ch, 3, 2, 1), nn.SiLU(), nn.Conv2d(ch, ch, 3, 2, 1), nn.SiLU())
        self.to_moments = nn.Conv2d(ch, 2 * latent, 1)

    def forward(self, x):
        return self.to_moments(self.net(x)).chunk(2, dim=1)


class Decoder(nn.Module):
    def __init__(self, out_ch=1, ch=16, latent=4):
        super().__init__()
        self.net = nn.Sequential(nn.ConvTranspose2d(latent, ch, 4, 2, 1), nn.SiLU(),
                                 nn.ConvTranspose2d(ch, out_ch, 4, 2, 1))

    def forward(self, z):
        return self.net(z)


class AutoencoderKL(nn.Module):
    def __init__(self, latent=4):
        super().__init__()
        self.encoder = Encoder(latent=latent)
        self.decoder = Decoder(latent=latent)

    def forward(self, x):
        mean, logvar = self.encoder(x)
        logvar = logvar.clamp(-30.0, 20.0)
        z = mean + torch.exp(0.5 * logvar) * torch.randn_like(mean)
        return self.decoder(z), mean, logvar
