import torch.nn as nn


class FrozenEncoder(nn.Module):
    def __init__(self, image_dim, latent_dim):
        super().__init__()
        self.proj = nn.Linear(image_dim, latent_dim)
        self.requires_grad_(False)

    def forward(self, x):
        return self.proj(x).tanh()


class Decoder(nn.Module):
    def __init__(self, latent_dim, image_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent_dim, hidden), nn.GELU(), nn.Linear(hidden, image_dim))

    def forward(self, z):
        return self.net(z)
