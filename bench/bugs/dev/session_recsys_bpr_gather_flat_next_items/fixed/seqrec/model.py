import torch
import torch.nn as nn


class GRURecommender(nn.Module):
    def __init__(self, n_items: int, dim: int = 32):
        super().__init__()
        self.items = nn.Embedding(n_items, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)

    def session_state(self, prefixes: torch.Tensor) -> torch.Tensor:
        _, h = self.gru(self.items(prefixes))
        return h[-1]

    def forward(self, prefixes: torch.Tensor) -> torch.Tensor:
        """Scores over the whole catalogue, (B, n_items)."""
        return self.session_state(prefixes) @ self.items.weight.T
