import torch
import torch.nn as nn


class CrossViewAttention(nn.Module):
    """Tokens of the global view attend to the tokens of the local patches."""

    def __init__(self, dim, heads=2, attn_drop=0.1):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.activation = nn.ReLU()

    def forward(self, glb, loc):
        b, n, c = glb.shape
        q = self.q(glb).reshape(b, n, self.heads, c // self.heads).transpose(1, 2)
        k, v = self.kv(loc).reshape(b, -1, 2, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        attn = torch.softmax(q @ k.transpose(-2, -1) * self.scale, dim=-1)
        attn = self.attn_drop(attn)
        out = (attn @ v).transpose(1, 2).reshape(b, n, c)
        return glb + self.activation(self.proj(out))
