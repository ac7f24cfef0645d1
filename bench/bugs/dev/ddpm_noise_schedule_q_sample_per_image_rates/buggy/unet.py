import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t: torch.Tensor, dim: int) -> torch.Tensor:
    half = dim // 2
    freqs = torch.exp(-math.log(10_000) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([args.sin(), args.cos()], dim=-1)


class Block(nn.Module):
    def __init__(self, c_in: int, c_out: int, t_dim: int):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, padding=1)
        self.t_proj = nn.Linear(t_dim, c_out)
        self.norm = nn.GroupNorm(8, c_out)

    def forward(self, x, temb):
        h = F.silu(self.conv1(x))
        h = h + self.t_proj(temb)[:, :, None, None]
        return F.silu(self.norm(self.conv2(h)))


class TinyUNet(nn.Module):
    def __init__(self, channels: int = 1, width: int = 32):
        super().__init__()
        self.t_dim = width * 4
        self.t_mlp = nn.Sequential(nn.Linear(width, self.t_dim), nn.SiLU(), nn.Linear(self.t_dim, self.t_dim))
        self.width = width
        self.down1 = Block(channels, width, self.t_dim)
        self.down2 = Block(width, width * 2, self.t_dim)
        self.up1 = Block(width * 3, width, self.t_dim)
        self.out = nn.Conv2d(width, channels, 1)

    def forward(self, x, t):
        temb = self.t_mlp(timestep_embedding(t, self.width))
        h1 = self.down1(x, temb)
        h2 = self.down2(F.avg_pool2d(h1, 2), temb)
        up = F.interpolate(h2, size=h1.shape[-2:], mode="nearest")
        return self.out(self.up1(torch.cat([up, h1], dim=1), temb))
