import math

import torch
from torch import nn


class FeedForwardBlock(nn.Module):
    def __init__(self, d_model: int = 256, d_ff: int = 1024, dropout: float = 0.1) -> None:
        super().__init__()
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))
        self.norm = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        norm = self.norm
        residual = x
        x = self.dropout(self.ff(x))
        return norm(residual + x)


class TinyEncoder(nn.Module):
    def __init__(self, vocab: int = 500, d_model: int = 256, depth: int = 2) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.scale = math.sqrt(d_model)
        self.blocks = nn.Sequential(*[FeedForwardBlock(d_model) for _ in range(depth)])

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.blocks(self.embed(ids) * self.scale)


if __name__ == "__main__":
    enc = TinyEncoder()
    ids = torch.randint(0, 500, (2, 12))
    out = enc(ids)
    print(out.shape)
