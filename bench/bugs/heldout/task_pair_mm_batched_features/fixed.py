import torch
import torch.nn as nn


class LowRankAdapter(nn.Module):
    """y = x + (x U) V, a rank-r update applied to token features."""

    def __init__(self, dim: int = 48, rank: int = 4) -> None:
        super().__init__()
        self.U = nn.Parameter(torch.randn(dim, rank) * 0.02)
        self.V = nn.Parameter(torch.zeros(rank, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + x @ self.U @ self.V


class TinyTextEncoder(nn.Module):
    def __init__(self, vocab: int = 500, dim: int = 48) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.adapter = LowRankAdapter(dim)
        self.pool = nn.AdaptiveAvgPool1d(1)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        h = self.adapter(self.embed(ids))
        return self.pool(h.transpose(1, 2)).squeeze(-1)


encoder = TinyTextEncoder()
print(encoder(torch.randint(0, 500, (3, 10))).shape)
