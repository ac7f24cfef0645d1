import torch.nn as nn


class DemandMLP(nn.Module):
    def __init__(self, n_lags: int = 8, hidden: int = 64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_lags, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, lags):
        return self.net(lags)
