import math

import torch
import torch.nn as nn


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, dim=64, n_heads=4, dropout=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.dim = dim
        self.q_lin = nn.Linear(dim, dim)
        self.k_lin = nn.Linear(dim, dim)
        self.v_lin = nn.Linear(dim, dim)
        self.out_lin = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, query, key, value, mask):
        bs, q_length, dim = query.size()
        dim_per_head = self.dim // self.n_heads

        def shape(x):
            return x.view(bs, -1, self.n_heads, dim_per_head).transpose(1, 2)

        def unshape(x):
            return x.transpose(1, 2).contiguous().view(bs, -1, self.n_heads * dim_per_head)

        q = shape(self.q_lin(query)) / math.sqrt(dim_per_head)
        k = shape(self.k_lin(key))
        v = shape(self.v_lin(value))
        scores = torch.matmul(q, k.transpose(2, 3))
        scores = scores.masked_fill(mask.view(bs, 1, 1, -1) == 0, torch.finfo(scores.dtype).min)
        weights = self.dropout(nn.functional.softmax(scores, dim=-1))
        context = unshape(torch.matmul(weights, v))
        return self.out_lin(context)


if __name__ == "__main__":
    attn = MultiHeadSelfAttention()
    x = torch.randn(2, 9, 64)
    mask = torch.ones(2, 9)
    print(attn(x, x, x, mask).shape)
