import math

import torch
import torch.nn as nn


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        emb = torch.exp(torch.arange(half, device=t.device) * -(math.log(10000) / (half - 1)))
        emb = t[:, None].float() * emb[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)


class Block1D(nn.Module):
    def __init__(self, dim, time_dim, dropout):
        super().__init__()
        self.conv1 = nn.Conv1d(dim, dim, 3, padding=1)
        self.norm = nn.GroupNorm(4, dim)
        self.time = nn.Linear(time_dim, dim)
        self.dropout = nn.Dropout(dropout)
        self.conv2 = nn.Conv1d(dim, dim, 3, padding=1)

    def forward(self, x, temb):
        h = torch.nn.functional.silu(self.norm(self.conv1(x))) + self.time(temb)[..., None]
        return x + self.conv2(self.dropout(h))


class Unet1D(nn.Module):
    def __init__(self, dim=16, channels=1, dropout=0.1, depth=2):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(dim), nn.Linear(dim, dim), nn.GELU())
        self.init_conv = nn.Conv1d(channels, dim, 7, padding=3)
        self.blocks = nn.ModuleList([Block1D(dim, dim, dropout) for _ in range(depth)])
        self.final_conv = nn.Conv1d(dim, channels, 1)

    def forward(self, x, t):
        temb = self.time_mlp(t)
        h = self.init_conv(x)
        for block in self.blocks:
            h = block(h, temb)
        return self.final_conv(h)
