import torch
import torch.nn as nn
import torch.nn.functional as F


class TaggingHead(nn.Module):
    def __init__(self, hidden: int, num_tags: int, ignore_index: int = -100):
        super().__init__()
        self.ignore_index = ignore_index
        self.proj = nn.Linear(hidden, num_tags)

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return self.proj(h)

    def loss(self, logits: torch.Tensor, tags: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits.transpose(1, 2), tags, ignore_index=self.ignore_index)


class Tagger(nn.Module):
    def __init__(self, vocab_size: int = 200, embed_dim: int = 32, hidden: int = 32, num_tags: int = 9):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.encoder = nn.GRU(embed_dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.2)
        self.head = TaggingHead(2 * hidden, num_tags)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h, _ = self.encoder(self.dropout(self.embed(tokens)))
        return self.head(h)
