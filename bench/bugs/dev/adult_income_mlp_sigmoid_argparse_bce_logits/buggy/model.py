import torch
from torch import nn


class AdultNet(nn.Module):
    """MLP for the Adult census income task (income > 50K)."""

    def __init__(self, input_dim, hidden=(64, 32), dropout=0.1):
        super().__init__()
        layers, width = [], input_dim
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU(), nn.Dropout(dropout)]
            width = h
        self.body = nn.Sequential(*layers)
        self.out = nn.Linear(width, 1)

    def forward(self, x):
        h = self.body(x)
        return torch.sigmoid(self.out(h))

    @torch.no_grad()
    def predict(self, x, threshold=0.5):
        self.eval()
        return (self(x) > threshold).long().squeeze(1)
