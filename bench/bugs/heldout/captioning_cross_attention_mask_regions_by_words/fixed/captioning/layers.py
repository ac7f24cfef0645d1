import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.1):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.key = nn.Linear(embed_dim, embed_dim)
        self.query = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.proj = nn.Linear(embed_dim, embed_dim)
        self.attn_drop = nn.Dropout(dropout)
        self.n_head = num_heads
        self.head_dim = embed_dim // num_heads

    def forward(self, query, key, value, attn_mask=None):
        """
        Inputs:
        - query: (N, S, E), key/value: (N, T, E)
        - attn_mask: (S, T), attn_mask[i, j] == 0 means query position i may not attend to key position j
        """
        N, S, E = query.shape
        N, T, E = value.shape
        q = self.query(query).view(N, S, self.n_head, self.head_dim).transpose(1, 2)
        k = self.key(key).view(N, T, self.n_head, self.head_dim).transpose(1, 2)
        v = self.value(value).view(N, T, self.n_head, self.head_dim).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        if attn_mask is not None:
            scores = scores.masked_fill(attn_mask == 0, float("-inf"))
        attn = self.attn_drop(F.softmax(scores, dim=-1))
        out = (attn @ v).transpose(1, 2).reshape(N, S, E)
        return self.proj(out)


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.self_attn = MultiHeadAttention(dim, heads)
        self.cross_attn = MultiHeadAttention(dim, heads)
        self.ffn = nn.Sequential(nn.Linear(dim, dim * 2), nn.ReLU(), nn.Linear(dim * 2, dim))
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(3)])

    def forward(self, tgt, memory, tgt_mask, memory_mask):
        tgt = self.norms[0](tgt + self.self_attn(tgt, tgt, tgt, tgt_mask))
        tgt = self.norms[1](tgt + self.cross_attn(tgt, memory, memory, memory_mask))
        return self.norms[2](tgt + self.ffn(tgt))
