import torch.nn as nn

from intents.data import PAD


class IntentClassifier(nn.Module):
    def __init__(self, vocab_size: int, n_intents: int, dim: int = 48, hidden: int = 64):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=PAD)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Dropout(0.1), nn.Linear(hidden, n_intents))

    def forward(self, tokens):
        mask = (tokens != PAD).unsqueeze(-1).float()
        pooled = (self.embed(tokens) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.mlp(pooled)
