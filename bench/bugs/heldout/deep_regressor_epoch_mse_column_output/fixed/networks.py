import torch.nn as nn


class MLPRegressorNetwork(nn.Module):
    def __init__(self, n_timepoints, n_dims, hidden=(64, 32), dropout=0.1):
        super().__init__()
        layers, width = [nn.Flatten()], n_timepoints * n_dims
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU(), nn.Dropout(dropout)]
            width = h
        layers.append(nn.Linear(width, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, X):
        return self.net(X)
