import torch.nn as nn


class GRURegressor(nn.Module):
    def __init__(self, n_sensors: int, hidden: int = 32, num_layers: int = 1, dropout: float = 0.0):
        super().__init__()
        self.proj = nn.Linear(n_sensors, hidden)
        self.gru = nn.GRU(hidden, hidden, num_layers=num_layers, batch_first=True,
                          dropout=dropout if num_layers > 1 else 0.0)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        out, _ = self.gru(self.proj(x))
        return self.head(out[:, -1])
