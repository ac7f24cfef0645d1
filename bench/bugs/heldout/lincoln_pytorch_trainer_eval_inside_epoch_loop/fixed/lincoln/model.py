import torch.nn as nn


class HousePriceMLP(nn.Module):
    def __init__(self, n_in=13, hidden=32, dropout=0.3):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout)
        )
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.out(self.layers(x)).squeeze(-1)
