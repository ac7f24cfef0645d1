import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoidal_embedding(t: torch.Tensor, dim: int) -> torch.Tensor:
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([args.sin(), args.cos()], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, c_in, c_out, time_dim):
        super().__init__()
        self.norm1 = nn.GroupNorm(8, c_in) if c_in % 8 == 0 else nn.Identity()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.time_proj = nn.Sequential(nn.SiLU(), nn.Linear(time_dim, c_out))
        self.norm2 = nn.GroupNorm(8, c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, padding=1)
        self.skip = nn.Conv2d(c_in, c_out, 1) if c_in != c_out else nn.Identity()

    def forward(self, x, t_emb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.time_proj(t_emb)[:, :, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return h + self.skip(x)


class SmallUNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        c = cfg.base_channels
        self.time_dim = cfg.time_dim
        self.time_mlp = nn.Sequential(nn.Linear(cfg.time_dim, cfg.time_dim), nn.SiLU(), nn.Linear(cfg.time_dim, cfg.time_dim))
        self.inc = ResBlock(cfg.channels, c, cfg.time_dim)
        self.down = nn.Conv2d(c, 2 * c, 4, stride=2, padding=1)
        self.mid = ResBlock(2 * c, 2 * c, cfg.time_dim)
        self.up = nn.ConvTranspose2d(2 * c, c, 4, stride=2, padding=1)
        self.dec = ResBlock(2 * c, c, cfg.time_dim)
        self.out = nn.Conv2d(c, cfg.channels, 1)

    def forward(self, x, t):
        t_emb = self.time_mlp(sinusoidal_embedding(t, self.time_dim))
        h1 = self.inc(x, t_emb)
        h2 = self.mid(self.down(h1), t_emb)
        h = self.dec(torch.cat([self.up(h2), h1], dim=1), t_emb)
        return self.out(h)
