import torch
import torch.nn as nn

from ops import attend, attention_scores


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.reshape(b, n, self.heads, self.head_dim).transpose(1, 2)
        k = k.reshape(b, n, self.heads, self.head_dim).transpose(1, 2)
        v = v.reshape(b, n, self.heads, self.head_dim).transpose(1, 2)
        weights = attention_scores(q, k).softmax(dim=-1)
        out = attend(weights, v).transpose(1, 2).reshape(b, n, d)
        return self.proj(out)


class PatchMixer(nn.Module):
    def __init__(self, patch=4, channels=3, dim=32, heads=4, depth=2, num_classes=10):
        super().__init__()
        self.patchify = nn.Conv2d(channels, dim, patch, stride=patch)
        self.blocks = nn.ModuleList()
        for _ in range(depth):
            self.blocks.append(nn.ModuleDict({"norm": nn.LayerNorm(dim), "attn": SelfAttention(dim, heads)}))
        self.head = nn.Linear(dim, num_classes)

    def forward(self, images):
        x = self.patchify(images).flatten(2).transpose(1, 2)
        for block in self.blocks:
            x = x + block["attn"](block["norm"](x))
        return self.head(x.mean(dim=1))
