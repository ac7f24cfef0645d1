import torch
import torch.nn as nn


class SensorGRU(nn.Module):
    def __init__(self, n_features, hidden, num_layers=1):
        super().__init__()
        self.hidden = hidden
        self.num_layers = num_layers
        self.gru = nn.GRU(n_features, hidden, num_layers=num_layers, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def init_hidden(self, batch_size):
        return torch.zeros(self.num_layers, batch_size, self.hidden)

    def forward(self, x, h):
        seq, h = self.gru(x, h)
        return self.out(seq[:, -1]).squeeze(-1), h
