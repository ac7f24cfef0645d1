import torch.nn as nn


class NextEventGRU(nn.Module):
    def __init__(self, n_events: int, emb_dim: int = 32, hidden: int = 64, num_layers: int = 1, dropout: float = 0.0):
        super().__init__()
        self.embed = nn.Embedding(n_events, emb_dim)
        self.gru = nn.GRU(emb_dim, hidden, num_layers=num_layers, batch_first=True)
        self.drop = nn.Dropout(dropout)
        self.out = nn.Linear(hidden, n_events)

    def forward(self, events):
        h, _ = self.gru(self.embed(events))
        return self.out(self.drop(h))
