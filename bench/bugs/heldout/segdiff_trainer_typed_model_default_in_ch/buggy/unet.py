import math

import torch
import torch.nn as nn


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, c_in, c_out, emb_dim):
        super().__init__()
        self.in_layers = nn.Sequential(nn.GroupNorm(4, c_in), nn.SiLU(), nn.Conv2d(c_in, c_out, 3, padding=1))
        self.emb_layers = nn.Linear(emb_dim, c_out)
        self.skip = nn.Conv2d(c_in, c_out, 1) if c_in != c_out else nn.Identity()

    def forward(self, x, emb):
        return self.skip(x) + self.in_layers(x) + self.emb_layers(emb)[:, :, None, None]


class SegDiffUNet(nn.Module):
    def __init__(self, in_ch=4, model_channels=16, out_ch=1, emb_dim=32):
        super().__init__()
        self.emb_dim = emb_dim
        self.time_embed = nn.Sequential(nn.Linear(emb_dim, emb_dim), nn.SiLU(), nn.Linear(emb_dim, emb_dim))
        self.input_conv = nn.Conv2d(in_ch, model_channels, 3, padding=1)
        self.block = ResBlock(model_channels, model_channels, emb_dim)
        self.out = nn.Conv2d(model_channels, out_ch, 3, padding=1)

    def forward(self, x, timesteps):
        emb = self.time_embed(timestep_embedding(timesteps, self.emb_dim))
        return self.out(self.block(self.input_conv(x), emb))
