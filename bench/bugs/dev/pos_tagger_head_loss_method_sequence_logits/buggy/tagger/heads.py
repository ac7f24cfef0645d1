import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_LABEL = -100


class TokenClassificationHead(nn.Module):
    def __init__(self, in_dim: int, num_tags: int, dropout: float = 0.2) -> None:
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.proj = nn.Linear(in_dim, num_tags)

    def forward(self, states: torch.Tensor) -> torch.Tensor:
        return self.proj(self.dropout(states))

    def loss(self, logits: torch.Tensor, tags: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits, tags, ignore_index=PAD_LABEL)

    @torch.no_grad()
    def decode(self, logits: torch.Tensor) -> torch.Tensor:
        return logits.argmax(dim=-1)
