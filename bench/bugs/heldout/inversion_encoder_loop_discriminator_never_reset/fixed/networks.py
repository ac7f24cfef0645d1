import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, img_dim: int = 64, w_dim: int = 16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(img_dim, 64), nn.LeakyReLU(0.2), nn.Linear(64, w_dim))

    def forward(self, x):
        return self.net(x)


class Generator(nn.Module):
    """Frozen pretrained generator: latent code to image."""

    def __init__(self, w_dim: int = 16, img_dim: int = 64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(w_dim, 64), nn.LeakyReLU(0.2), nn.Linear(64, img_dim), nn.Tanh())
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, w):
        return self.net(w)


class Discriminator(nn.Module):
    def __init__(self, img_dim: int = 64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(img_dim, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)
