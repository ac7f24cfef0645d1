import math

import torch
from torch import nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, max_len: int = 512) -> None:
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.pe[: x.size(1)]


class Forecaster(nn.Module):
    """Next-step forecaster: a causal transformer over a window of multivariate readings."""

    def __init__(self, n_features: int, hidden_dim: int = 32, n_heads: int = 4, n_layers: int = 2) -> None:
        super().__init__()
        self.inp = nn.Linear(n_features, hidden_dim)
        self.pos = PositionalEncoding(hidden_dim)
        layer = nn.TransformerEncoderLayer(hidden_dim, n_heads, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)
        self.out = nn.Linear(hidden_dim, n_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        attention_mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1])
        h = self.encoder(self.pos(self.inp(x)), mask=attention_mask)
        return self.out(h)
