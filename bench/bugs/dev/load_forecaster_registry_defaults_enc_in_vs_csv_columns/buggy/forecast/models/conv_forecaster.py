import torch.nn as nn

from .embed import DataEmbedding


class ConvForecaster(nn.Module):
    def __init__(self, enc_in: int = 7, c_out: int = 1, seq_len: int = 48, pred_len: int = 12,
                 d_model: int = 32, n_heads: int = 4, e_layers: int = 2, dropout: float = 0.1):
        super().__init__()
        self.pred_len = pred_len
        self.embedding = DataEmbedding(enc_in, d_model, dropout)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=2 * d_model, dropout=dropout,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, e_layers)
        self.time_proj = nn.Linear(seq_len, pred_len)
        self.out_proj = nn.Linear(d_model, c_out)

    def forward(self, x):
        h = self.encoder(self.embedding(x))                       # (B, seq_len, d_model)
        h = self.time_proj(h.transpose(1, 2)).transpose(1, 2)     # (B, pred_len, d_model)
        return self.out_proj(h)
