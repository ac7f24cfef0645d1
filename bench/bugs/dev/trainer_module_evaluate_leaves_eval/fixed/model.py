import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, n_in=10, n_out=3, p=0.3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Dropout(p), nn.Linear(32, n_out))

    def forward(self, x):
        return self.net(x)
