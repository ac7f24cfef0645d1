import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).unbind(dim=2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / (d // self.heads) ** 0.5
        attn = scores.softmax(dim=-1)
        out = torch.einsum("bhqk,bhkd->bhqd", attn, v)
        return self.out(out.transpose(1, 2).reshape(b, t, d))


layer = SelfAttention()
print(layer(torch.randn(2, 10, 32)).shape)
