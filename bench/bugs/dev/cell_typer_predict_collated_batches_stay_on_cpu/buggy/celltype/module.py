import torch
import torch.nn as nn


class TyperModule(nn.Module):
    def __init__(self, n_markers, n_covariates, n_types, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_markers + n_covariates, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                                 nn.Linear(hidden, n_types))

    def forward(self, x, cov):
        return self.net(torch.cat([torch.log1p(x), cov], dim=1))
