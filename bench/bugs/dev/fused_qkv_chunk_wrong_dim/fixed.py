import math

import torch
import torch.nn as nn


class FusedSelfAttention(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(B, N, self.heads, C // self.heads).transpose(1, 2)
        k = k.view(B, N, self.heads, C // self.heads).transpose(1, 2)
        v = v.view(B, N, self.heads, C // self.heads).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1)) / math.sqrt(C // self.heads)
        out = attn.softmax(dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(B, N, C))


block = FusedSelfAttention()
print(block(torch.randn(2, 16, 64)).shape)
