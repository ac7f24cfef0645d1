import math
from dataclasses import dataclass

import torch
import torch.nn as nn

from molgen.masks import padding_mask


@dataclass
class EncoderConfig:
    vocab_size: int = 25
    d_model: int = 32
    nhead: int = 4
    num_layers: int = 2
    dim_feedforward: int = 64
    max_len: int = 64
    dropout: float = 0.1


class SmilesPropertyModel(nn.Module):
    def __init__(self, cfg: EncoderConfig, pad_idx: int = 0):
        super().__init__()
        self.pad_idx = pad_idx
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=pad_idx)
        self.pos = nn.Parameter(torch.randn(1, cfg.max_len, cfg.d_model) / math.sqrt(cfg.d_model))
        layer = nn.TransformerEncoderLayer(cfg.d_model, cfg.nhead, cfg.dim_feedforward, cfg.dropout, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, cfg.num_layers, enable_nested_tensor=False)
        self.head = nn.Linear(cfg.d_model, 1)

    def forward(self, tokens):
        pad = padding_mask(tokens, self.pad_idx)
        x = self.embed(tokens) + self.pos[:, : tokens.size(1)]
        h = self.encoder(x, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.head(pooled).squeeze(-1)
