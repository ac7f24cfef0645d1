import torch
import torch.nn as nn


def make_head(d_model, horizon):
    return nn.Sequential(nn.Linear(d_model, d_model), nn.GELU(), nn.Linear(d_model, horizon))


class QuantileForecaster(nn.Module):
    def __init__(self, n_features=4, d_model=24, horizon=6, quantiles=(0.1, 0.5, 0.9)):
        super().__init__()
        self.quantiles = list(quantiles)
        self.encoder = nn.GRU(n_features, d_model, batch_first=True)
        self.heads = nn.ModuleList([make_head(d_model, horizon) for _ in self.quantiles])
        self.recent_context = []

    def forward(self, history):
        _, h = self.encoder(history)
        context = h[-1]
        self.recent_context = [context.detach()]
        return torch.stack([head(context) for head in self.heads], dim=-1)
