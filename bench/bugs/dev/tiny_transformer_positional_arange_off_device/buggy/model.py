import math

import torch
import torch.nn as nn


class SinusoidalPositions(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        inv_freq = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, x):
        seq_len = x.size(1)
        angles = torch.arange(seq_len).float()[:, None] * self.inv_freq[None, :]
        return x + torch.cat([angles.sin(), angles.cos()], dim=-1)


class TinyTransformer(nn.Module):
    def __init__(self, vocab_size=32, d_model=16, n_heads=2, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.positions = SinusoidalPositions(d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=32, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)
        self.lm_head = nn.Linear(d_model, vocab_size)

    def forward(self, tokens):
        h = self.positions(self.embed(tokens) * math.sqrt(self.embed.embedding_dim))
        return self.lm_head(self.encoder(h))
