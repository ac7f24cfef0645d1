import math

import torch
import torch.nn as nn

PAD = 0


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        # x: (seq_len, batch, d_model)
        return x + self.pe[: x.size(0)]


class TransformerClassifier(nn.Module):
    def __init__(self, ntoken, d_model=32, nhead=4, d_hid=64, nlayers=2, nclass=3):
        super().__init__()
        self.embedding = nn.Embedding(ntoken, d_model, padding_idx=PAD)
        self.pos_encoder = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout=0.1)
        self.transformer_encoder = nn.TransformerEncoder(layer, nlayers, enable_nested_tensor=False)
        self.classifier = nn.Linear(d_model, nclass)

    def forward(self, src, src_key_padding_mask):
        # src: (seq_len, batch) token ids, time-major like the rest of the pipeline
        x = self.pos_encoder(self.embedding(src) * math.sqrt(self.embedding.embedding_dim))
        h = self.transformer_encoder(x, src_key_padding_mask=src_key_padding_mask)
        keep = (~src_key_padding_mask).t().unsqueeze(-1).float()
        return self.classifier((h * keep).sum(0) / keep.sum(0).clamp(min=1.0))
