import math

import torch
import torch.nn as nn


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([args.sin(), args.cos()], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, dim, time_dim, dropout):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, dim)
        self.time = nn.Linear(time_dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.drop = nn.Dropout(dropout)
        self.fc2 = nn.Linear(dim, dim)

    def forward(self, x, temb):
        h = self.fc1(torch.nn.functional.silu(self.norm1(x))) + self.time(temb)
        h = self.fc2(self.drop(torch.nn.functional.silu(self.norm2(h))))
        return x + h


class Denoiser(nn.Module):
    """Predicts the noise added to a 2-D point cloud sample at step t."""

    def __init__(self, data_dim=2, dim=64, time_dim=32, depth=3, dropout=0.1):
        super().__init__()
        self.time_dim = time_dim
        self.inp = nn.Linear(data_dim, dim)
        self.blocks = nn.ModuleList([ResBlock(dim, time_dim, dropout) for _ in range(depth)])
        self.out = nn.Linear(dim, data_dim)

    def forward(self, x, t):
        temb = timestep_embedding(t, self.time_dim)
        h = self.inp(x)
        for block in self.blocks:
            h = block(h, temb)
        return self.out(h)
