import math

import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    """Queries from the decoder, keys and values from the image encoder."""

    def __init__(self, query_dim=64, context_dim=96, key_dim=32):
        super().__init__()
        self.to_q = nn.Linear(query_dim, query_dim)
        self.to_k = nn.Linear(context_dim, query_dim)
        self.to_v = nn.Linear(context_dim, query_dim)
        self.out = nn.Linear(query_dim, query_dim)

    def score(self, q, k):
        return q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))

    def forward(self, x, context):
        q, k, v = self.to_q(x), self.to_k(context), self.to_v(context)
        weights = self.score(q, k).softmax(dim=-1)
        return self.out(weights @ v)


if __name__ == "__main__":
    attn = CrossAttention()
    tokens = torch.randn(2, 10, 64)
    patches = torch.randn(2, 49, 96)
    out = attn(tokens, patches)
    print(out.shape)
