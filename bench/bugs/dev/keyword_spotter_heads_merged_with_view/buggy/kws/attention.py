import math

import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim, num_heads, attn_drop=0.0):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.o_proj = nn.Linear(dim, dim)
        self.attn_drop = nn.Dropout(attn_drop)

    def _shape(self, t, bsz, seq_len):
        return t.view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, hidden_states):
        bsz, seq_len, dim = hidden_states.size()
        q = self._shape(self.q_proj(hidden_states), bsz, seq_len)
        k = self._shape(self.k_proj(hidden_states), bsz, seq_len)
        v = self._shape(self.v_proj(hidden_states), bsz, seq_len)

        attn = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) * self.scale, dim=-1)
        attn = self.attn_drop(attn)
        out = torch.matmul(attn, v)
        out = out.transpose(1, 2).view(bsz, seq_len, dim)
        return self.o_proj(out)
