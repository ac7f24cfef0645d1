import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, hidden: int, heads: int, max_items: int, dropout: float) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.out = nn.Linear(hidden, hidden)
        self.dropout = dropout
        mask = torch.ones(max_items, max_items, dtype=torch.bool).tril()
        self.register_buffer("causal_mask", mask, persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q = q.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        drop = self.dropout if self.training else 0.0
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=self.causal_mask[:t, :t], dropout_p=drop)
        y = y.transpose(1, 2).reshape(b, t, d)
        return self.out(y)


class Block(nn.Module):
    def __init__(self, hidden: int, heads: int, max_items: int, dropout: float) -> None:
        super().__init__()
        self.ln1 = nn.LayerNorm(hidden)
        self.attn = CausalSelfAttention(hidden, heads, max_items, dropout)
        self.ln2 = nn.LayerNorm(hidden)
        self.ff = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln1(x))
        return x + self.ff(self.ln2(x))


class SessionRecommender(nn.Module):
    def __init__(self, num_items: int, hidden: int, heads: int, blocks: int, max_items: int,
                 dropout: float = 0.1) -> None:
        super().__init__()
        self.item_emb = nn.Embedding(num_items + 1, hidden, padding_idx=0)
        self.pos_emb = nn.Embedding(max_items, hidden)
        self.blocks = nn.ModuleList(Block(hidden, heads, max_items, dropout) for _ in range(blocks))
        self.norm = nn.LayerNorm(hidden)
        self.scale = math.sqrt(hidden)

    def forward(self, items: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(items.size(1), device=items.device)
        h = self.item_emb(items) * self.scale + self.pos_emb(positions)
        for block in self.blocks:
            h = block(h)
        h = self.norm(h)
        return h @ self.item_emb.weight.t()
