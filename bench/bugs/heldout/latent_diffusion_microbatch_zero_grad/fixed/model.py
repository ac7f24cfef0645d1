import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class LatentDenoiser(nn.Module):
    """A small MLP denoiser over frozen-encoder latents."""

    def __init__(self, latent_dim=16, hidden=64, t_dim=16):
        super().__init__()
        self.t_dim = t_dim
        self.net = nn.Sequential(nn.Linear(latent_dim + t_dim, hidden), nn.SiLU(), nn.Linear(hidden, latent_dim))

    def forward(self, z_t, t):
        return self.net(torch.cat([z_t, timestep_embedding(t, self.t_dim)], dim=-1))


class FlowMatching:
    def __init__(self, model):
        self.model = model

    def training_loss(self, z0):
        t = torch.rand(z0.size(0))
        noise = torch.randn_like(z0)
        z_t = (1 - t[:, None]) * z0 + t[:, None] * noise
        pred = self.model(z_t, (t * 999).long())
        return F.mse_loss(pred, noise - z0)
