import torch
import torch.nn as nn

from kws.attention import SelfAttention


class ConvFrontend(nn.Module):
    def __init__(self, n_mels, dim):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_mels, dim, 3, padding=1), nn.GELU(),
            nn.Conv1d(dim, dim, 3, stride=2, padding=1), nn.GELU(),
        )

    def forward(self, mels):
        return self.conv(mels).transpose(1, 2)


class EncoderLayer(nn.Module):
    def __init__(self, dim, num_heads, dropout=0.1):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, num_heads, dropout)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Dropout(dropout), nn.Linear(2 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.ff(self.norm2(x))


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels=40, dim=64, num_heads=4, depth=2, n_keywords=12):
        super().__init__()
        self.frontend = ConvFrontend(n_mels, dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, num_heads) for _ in range(depth))
        self.head = nn.Linear(dim, n_keywords)

    def forward(self, mels):
        x = self.frontend(mels)
        for layer in self.layers:
            x = layer(x)
        return self.head(x.mean(dim=1))
