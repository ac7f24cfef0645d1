import torch
import torch.nn as nn


def down(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 4, stride=2, padding=1), nn.GroupNorm(4, c_out), nn.SiLU())


def up(c_in, c_out):
    return nn.Sequential(nn.ConvTranspose2d(c_in, c_out, 4, stride=2, padding=1), nn.GroupNorm(4, c_out), nn.SiLU())


class RepresentationAutoencoder(nn.Module):
    def __init__(self, channels=3, width=16, latent=8):
        super().__init__()
        self.encoder = nn.Sequential(down(channels, width), down(width, 2 * width), nn.Conv2d(2 * width, latent, 1))
        self.decoder = nn.Sequential(nn.Conv2d(latent, 2 * width, 1), up(2 * width, width), up(width, width))
        self.to_pixels = nn.Conv2d(width, channels, 3, padding=1)

    def forward(self, x):
        z = self.encoder(x)
        return torch.tanh(self.to_pixels(self.decoder(z)))
