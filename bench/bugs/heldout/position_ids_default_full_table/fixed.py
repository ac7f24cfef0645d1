from typing import Optional

import torch
from torch import nn


class Embeddings(nn.Module):
    def __init__(self, vocab: int = 1000, dim: int = 32, max_positions: int = 64) -> None:
        super().__init__()
        self.max_positions = max_positions
        self.word = nn.Embedding(vocab, dim)
        self.position = nn.Embedding(max_positions, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, input_ids: torch.Tensor, position_ids: Optional[torch.Tensor] = None) -> torch.Tensor:
        if position_ids is None:
            position_ids = torch.arange(input_ids.size(1)).unsqueeze(0)
        return self.norm(self.word(input_ids) + self.position(position_ids))


emb = Embeddings()
batch = torch.randint(0, 1000, (2, 10))
print(emb(batch).shape)
