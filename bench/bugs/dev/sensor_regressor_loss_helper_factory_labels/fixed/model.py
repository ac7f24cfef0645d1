import torch.nn as nn


class MLPRegressor(nn.Module):
    def __init__(self, in_features, hidden=(64, 32), dropout=0.1):
        super().__init__()
        layers = []
        prev = in_features
        for width in hidden:
            layers += [nn.Linear(prev, width), nn.ReLU(), nn.Dropout(dropout)]
            prev = width
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(prev, 1)

    def forward(self, x):
        return self.head(self.body(x))
