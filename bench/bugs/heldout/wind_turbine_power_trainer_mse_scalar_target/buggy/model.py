import torch.nn as nn


def mlp_block(in_dim: int, out_dim: int, dropout: float) -> nn.Sequential:
    return nn.Sequential(nn.Linear(in_dim, out_dim), nn.LayerNorm(out_dim), nn.GELU(), nn.Dropout(dropout))


class PowerCurveNet(nn.Module):
    def __init__(self, n_features: int, hidden_sizes=(64, 32), dropout: float = 0.1):
        super().__init__()
        blocks, width = [], n_features
        for size in hidden_sizes:
            blocks.append(mlp_block(width, size, dropout))
            width = size
        self.body = nn.Sequential(*blocks)
        self.head = nn.Linear(width, 1)

    def forward(self, x):
        return self.head(self.body(x))
