import torch
import torch.nn as nn


class RelPosSelfAttention(nn.Module):
    """Self-attention with a learned bias from each query to every key position."""

    def __init__(self, embed_dim: int, num_heads: int, max_len: int, dropout: float = 0.1):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.proj = nn.Linear(embed_dim, embed_dim)
        self.rel_pos = nn.Parameter(torch.randn(max_len, self.head_dim) * 0.02)
        self.drop = nn.Dropout(dropout)

    def split_heads(self, t: torch.Tensor) -> torch.Tensor:
        b, n, _ = t.shape
        return t.view(b, n, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, e = x.shape
        q, k, v = (self.split_heads(t) for t in self.qkv(x).chunk(3, dim=-1))
        content = q @ k.transpose(-2, -1)
        position = torch.einsum("bhid,jd->bhij", q, self.rel_pos[:n])
        attn = ((content + position) / self.head_dim**0.5).softmax(dim=-1)
        out = (self.drop(attn) @ v).transpose(1, 2).reshape(b, n, e)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, max_len: int, dropout: float):
        super().__init__()
        self.norm1 = nn.LayerNorm(embed_dim)
        self.attn = RelPosSelfAttention(embed_dim, num_heads, max_len, dropout)
        self.norm2 = nn.LayerNorm(embed_dim)
        self.mlp = nn.Sequential(nn.Linear(embed_dim, 4 * embed_dim), nn.GELU(), nn.Linear(4 * embed_dim, embed_dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class TextClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_heads, num_layers, max_len, num_classes, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_dim)
        self.blocks = nn.ModuleList(Block(embed_dim, num_heads, max_len, dropout) for _ in range(num_layers))
        self.norm = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, num_classes)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x).mean(dim=1))
