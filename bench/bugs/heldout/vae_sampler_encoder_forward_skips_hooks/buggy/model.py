import torch
import torch.nn as nn


class GaussianEncoder(nn.Module):
    def __init__(self, x_dim: int = 64, z_dim: int = 8, hidden: int = 64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(x_dim, hidden), nn.ReLU())
        self.loc = nn.Linear(hidden, z_dim)
        self.log_scale = nn.Linear(hidden, z_dim)

    def forward(self, x: torch.Tensor):
        h = self.body(x)
        return self.loc(h), self.log_scale(h).clamp(-5, 5)


class BernoulliDecoder(nn.Module):
    def __init__(self, x_dim: int = 64, z_dim: int = 8, hidden: int = 64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, hidden), nn.ReLU(), nn.Linear(hidden, x_dim))

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        return self.net(z)


class VAE(nn.Module):
    def __init__(self, x_dim: int = 64, z_dim: int = 8):
        super().__init__()
        self.encoder = GaussianEncoder(x_dim, z_dim)
        self.decoder = BernoulliDecoder(x_dim, z_dim)

    def sample_latent(self, x: torch.Tensor):
        loc, log_scale = self.encoder.forward(x)
        z = loc + log_scale.exp() * torch.randn_like(loc)
        return z, loc, log_scale

    def forward(self, x: torch.Tensor):
        z, loc, log_scale = self.sample_latent(x)
        return self.decoder(z), loc, log_scale
