import torch.nn as nn


class TabularNet(nn.Module):
    def __init__(self, in_features=12, hidden=32, n_classes=3, p=0.2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_features, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, x):
        return self.net(x)
