import math

import torch
import torch.nn as nn

from textenc.masking import key_padding_mask


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, max_len: int = 256):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(pos * div)
        pe[:, 0, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(0)]


class DocClassifier(nn.Module):
    def __init__(self, vocab_size: int, n_classes: int, d_model: int = 32, nhead: int = 4, layers: int = 2,
                 pad_id: int = 0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=pad_id)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=2 * d_model, dropout=0.1)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.fc = nn.Linear(d_model, n_classes)

    def forward(self, tokens):
        mask = key_padding_mask(tokens, self.pad_id)
        h = self.encoder(self.pos(self.embed(tokens)), src_key_padding_mask=mask)
        keep = (~mask).t().unsqueeze(-1).float()
        return self.fc((h * keep).sum(0) / keep.sum(0).clamp(min=1.0))
