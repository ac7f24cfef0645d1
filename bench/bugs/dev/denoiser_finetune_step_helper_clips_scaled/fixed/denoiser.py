import math

import torch
import torch.nn as nn


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class TinyDenoiser(nn.Module):
    def __init__(self, channels=4, width=32, t_dim=32):
        super().__init__()
        self.t_dim = t_dim
        self.t_mlp = nn.Sequential(nn.Linear(t_dim, width), nn.SiLU(), nn.Linear(width, width))
        self.inp = nn.Conv2d(channels, width, 3, padding=1)
        self.mid = nn.Conv2d(width, width, 3, padding=1)
        self.out = nn.Conv2d(width, channels, 3, padding=1)

    def forward(self, x, t):
        h = self.inp(x)
        h = h + self.t_mlp(timestep_embedding(t, self.t_dim))[:, :, None, None]
        h = self.mid(torch.nn.functional.silu(h))
        return self.out(torch.nn.functional.silu(h))
