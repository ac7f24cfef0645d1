import math

import torch
import torch.nn as nn


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0):
        super().__init__()
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout = nn.Dropout(dropout)

    def _shape(self, x, bsz):
        return x.view(bsz, -1, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, query, key, value, key_padding_mask=None):
        bsz, tgt_len, _ = query.size()
        q = self._shape(self.q_proj(query), bsz) / math.sqrt(self.head_dim)
        k = self._shape(self.k_proj(key), bsz)
        v = self._shape(self.v_proj(value), bsz)
        attn_weights = q @ k.transpose(-2, -1)
        if key_padding_mask is not None:
            attn_weights = attn_weights.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        attn_probs = self.dropout(attn_weights.softmax(dim=-1))
        attn = attn_probs @ v
        attn = attn.transpose(1, 2).view(bsz, tgt_len, self.embed_dim)
        return self.out_proj(attn)


class DecoderLayer(nn.Module):
    def __init__(self, embed_dim=32, heads=4, ffn_dim=64):
        super().__init__()
        self.self_attn = MultiheadAttention(embed_dim, heads)
        self.encoder_attn = MultiheadAttention(embed_dim, heads)
        self.ffn = nn.Sequential(nn.Linear(embed_dim, ffn_dim), nn.ReLU(), nn.Linear(ffn_dim, embed_dim))
        self.norms = nn.ModuleList(nn.LayerNorm(embed_dim) for _ in range(3))

    def forward(self, x, memory, memory_padding_mask=None):
        x = self.norms[0](x + self.self_attn(x, x, x))
        x = self.norms[1](x + self.encoder_attn(x, memory, memory, memory_padding_mask))
        return self.norms[2](x + self.ffn(x))
