import torch
from torch import nn


class ToyModel(nn.Module):
    """x -> ReLU(W^T W x + b): n_features squeezed through n_hidden dimensions."""

    def __init__(self, n_features, n_hidden):
        super().__init__()
        self.W = nn.Parameter(torch.empty(n_hidden, n_features))
        nn.init.xavier_normal_(self.W)
        self.b_final = nn.Parameter(torch.zeros(n_features))

    def forward(self, x):
        hidden = x @ self.W.T
        return torch.relu(hidden @ self.W + self.b_final)
