import torch.nn as nn


class TinyMaskedLM(nn.Module):
    def __init__(self, vocab_size, dim, hidden, dropout):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.mixer = nn.Sequential(
            nn.Linear(dim, hidden), nn.GELU(), nn.Dropout(dropout), nn.Linear(hidden, dim),
        )
        self.norm = nn.LayerNorm(dim)
        self.drop = nn.Dropout(dropout)
        self.lm_head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids):
        h = self.drop(self.embed(input_ids))
        h = self.norm(h + self.mixer(h))
        return self.lm_head(h)
