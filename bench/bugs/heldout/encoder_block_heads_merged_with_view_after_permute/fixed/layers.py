import math

import torch
import torch.nn as nn


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float("-inf"))
    return scores.softmax(dim=-1) @ v


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model=64, n_heads=4):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)

    def forward(self, x, mask=None):
        B, T = x.shape[0], x.shape[-2]
        q = self.w_q(x).view(B, T, self.n_heads, self.d_k).permute(0, 2, 1, 3)
        k = self.w_k(x).view(B, T, self.n_heads, self.d_k).permute(0, 2, 1, 3)
        v = self.w_v(x).view(B, T, self.n_heads, self.d_k).permute(0, 2, 1, 3)
        if mask is not None:
            mask = mask.unsqueeze(1)
        out = scaled_dot_product_attention(q, k, v, mask)
        out = out.permute(0, 2, 1, 3).reshape(B, T, self.d_model)
        return self.w_o(out)


class EncoderLayer(nn.Module):
    def __init__(self, d_model=64, n_heads=4, d_ff=128, dropout=0.1):
        super().__init__()
        self.attn = MultiHeadAttention(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        x = self.norm1(x + self.drop(self.attn(x, mask)))
        return self.norm2(x + self.drop(self.ff(x)))
