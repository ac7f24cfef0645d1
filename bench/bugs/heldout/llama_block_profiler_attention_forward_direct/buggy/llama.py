import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ModelArgs:
    dim: int = 32
    n_heads: int = 4
    n_layers: int = 2
    vocab_size: int = 64
    max_seq_len: int = 16


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class AttentionMHA(nn.Module):
    def __init__(self, args: ModelArgs):
        super().__init__()
        self.n_heads = args.n_heads
        self.head_dim = args.dim // args.n_heads
        self.wqkv = nn.Linear(args.dim, 3 * args.dim, bias=False)
        self.wo = nn.Linear(args.dim, args.dim, bias=False)

    def forward(self, x, mask):
        bsz, seqlen, _ = x.shape
        q, k, v = self.wqkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(bsz, seqlen, self.n_heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim) + mask
        out = F.softmax(scores, dim=-1) @ v
        return self.wo(out.transpose(1, 2).reshape(bsz, seqlen, -1))


class TransformerBlock(nn.Module):
    def __init__(self, args: ModelArgs):
        super().__init__()
        self.attention = AttentionMHA(args)
        self.feed_forward = nn.Sequential(nn.Linear(args.dim, 4 * args.dim), nn.SiLU(), nn.Linear(4 * args.dim, args.dim))
        self.attention_norm = RMSNorm(args.dim)
        self.ffn_norm = RMSNorm(args.dim)

    def forward(self, x, mask):
        h = x + self.attention.forward(self.attention_norm(x), mask)
        return h + self.feed_forward(self.ffn_norm(h))


class Transformer(nn.Module):
    def __init__(self, args: ModelArgs):
        super().__init__()
        self.tok_embeddings = nn.Embedding(args.vocab_size, args.dim)
        self.layers = nn.ModuleList(TransformerBlock(args) for _ in range(args.n_layers))
        self.norm = RMSNorm(args.dim)
        self.output = nn.Linear(args.dim, args.vocab_size, bias=False)

    def forward(self, tokens):
        seqlen = tokens.size(1)
        mask = torch.full((seqlen, seqlen), float("-inf")).triu(1)
        h = self.tok_embeddings(tokens)
        for layer in self.layers:
            h = layer(h, mask)
        return self.output(self.norm(h))
