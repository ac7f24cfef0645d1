import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, channels, dim, patch):
        super().__init__()
        self.proj = nn.Conv2d(channels, dim, patch, stride=patch)

    def forward(self, x):
        return self.proj(x)


class CrossFormerLite(nn.Module):
    """Maps the atmospheric state at t to the state at t+1 on a coarse lat-lon grid."""

    def __init__(self, channels=4, dim=32, patch=4, depth=2):
        super().__init__()
        self.embed = PatchEmbed(channels, dim, patch)
        self.blocks = nn.Sequential(*[
            nn.Sequential(nn.Conv2d(dim, dim, 3, padding=1), nn.GroupNorm(4, dim), nn.GELU()) for _ in range(depth)
        ])
        self.head = nn.ConvTranspose2d(dim, channels, patch, stride=patch)

    def forward(self, state):
        return state + self.head(self.blocks(self.embed(state)))
