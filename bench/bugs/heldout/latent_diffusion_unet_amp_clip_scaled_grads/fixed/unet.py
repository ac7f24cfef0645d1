import math

import torch
import torch.nn as nn


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, channels, t_dim):
        super().__init__()
        self.norm1, self.conv1 = nn.GroupNorm(8, channels), nn.Conv2d(channels, channels, 3, padding=1)
        self.t_proj = nn.Linear(t_dim, channels)
        self.norm2, self.conv2 = nn.GroupNorm(8, channels), nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x, t_emb):
        h = self.conv1(torch.nn.functional.silu(self.norm1(x)))
        h = h + self.t_proj(t_emb)[:, :, None, None]
        return x + self.conv2(torch.nn.functional.silu(self.norm2(h)))


class TinyUNet(nn.Module):
    def __init__(self, in_ch=4, base=32, t_dim=64):
        super().__init__()
        self.t_dim = t_dim
        self.t_mlp = nn.Sequential(nn.Linear(t_dim, t_dim), nn.SiLU())
        self.inc = nn.Conv2d(in_ch, base, 3, padding=1)
        self.down = nn.Conv2d(base, base, 3, stride=2, padding=1)
        self.mid = ResBlock(base, t_dim)
        self.up = nn.ConvTranspose2d(base, base, 4, stride=2, padding=1)
        self.res = ResBlock(base, t_dim)
        self.out = nn.Conv2d(base, in_ch, 3, padding=1)

    def forward(self, x, t):
        t_emb = self.t_mlp(timestep_embedding(t, self.t_dim))
        h = self.inc(x)
        h = self.up(self.mid(self.down(h), t_emb)) + h
        return self.out(self.res(h, t_emb))
