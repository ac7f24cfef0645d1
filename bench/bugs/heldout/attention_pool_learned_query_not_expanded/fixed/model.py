import torch
import torch.nn as nn


class AttentionPool(nn.Module):
    """Pools a grid of patch features into one vector with a learned query."""

    def __init__(self, dim, num_heads=4):
        super().__init__()
        self.query = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.attn = nn.MultiheadAttention(dim, num_heads, batch_first=True)
        self.norm = nn.LayerNorm(dim)

    def forward(self, feats):
        pooled, _ = self.attn(self.query.expand(feats.size(0), -1, -1), feats, feats)
        return self.norm(pooled.squeeze(1))


class PatchEncoder(nn.Module):
    def __init__(self, patch=4, dim=32):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.mix = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())

    def forward(self, images):
        tokens = self.proj(images).flatten(2).transpose(1, 2)
        return tokens + self.mix(tokens)


class Captioner(nn.Module):
    def __init__(self, dim=32, n_concepts=20):
        super().__init__()
        self.encoder = PatchEncoder(dim=dim)
        self.pool = AttentionPool(dim)
        self.concepts = nn.Linear(dim, n_concepts)

    def forward(self, images):
        return self.concepts(self.pool(self.encoder(images)))
