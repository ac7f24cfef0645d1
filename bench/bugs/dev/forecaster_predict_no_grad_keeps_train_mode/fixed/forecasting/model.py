import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=256, dropout=0.1):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return self.dropout(x + self.pe[:, : x.size(1)])


class ContextTargetTransformer(nn.Module):
    """Encodes the context window (x_c, y_c) and reads the target times x_t against it."""

    def __init__(self, d_x, d_y, d_model=32, n_heads=4, n_layers=2, dropout=0.1):
        super().__init__()
        self.ctx_embed = nn.Linear(d_x + d_y, d_model)
        self.tgt_embed = nn.Linear(d_x, d_model)
        self.pos = PositionalEncoding(d_model, dropout=dropout)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 2 * d_model, dropout, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.cross = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=True)
        self.head = nn.Sequential(nn.Linear(d_model, d_model), nn.GELU(), nn.Dropout(dropout), nn.Linear(d_model, d_y))

    def forward(self, x_c, y_c, x_t):
        memory = self.encoder(self.pos(self.ctx_embed(torch.cat([x_c, y_c], dim=-1))))
        queries = self.pos(self.tgt_embed(x_t))
        attended, _ = self.cross(queries, memory, memory)
        return self.head(attended)
