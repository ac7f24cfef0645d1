import torch
import torch.nn as nn

from config import EncoderConfig


class SensorEncoder(nn.Module):
    def __init__(self, cfg: EncoderConfig):
        super().__init__()
        self.input_proj = nn.Linear(cfg.n_channels, cfg.d_model)
        self.pos = nn.Parameter(torch.zeros(1, cfg.max_len, cfg.d_model))
        self.attn = nn.MultiheadAttention(cfg.d_model, cfg.n_heads, dropout=cfg.dropout, batch_first=True)
        self.norm = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.n_classes)

    def forward(self, x, padding_mask):
        T = x.shape[1]
        h = self.input_proj(x) + self.pos[:, :T]
        attended, _ = self.attn(h, h, h, key_padding_mask=padding_mask)
        h = self.norm(h + attended)
        keep = (~padding_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.head(pooled)
