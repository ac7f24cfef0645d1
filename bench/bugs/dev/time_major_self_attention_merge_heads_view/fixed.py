import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class EncoderArgs:
    vocab: int = 50
    embed_dim: int = 32
    heads: int = 4
    ffn_dim: int = 64
    layers: int = 2
    dropout: float = 0.1


class MultiheadAttention(nn.Module):
    """Time-major (T, B, C) self-attention, the layout the rest of the encoder uses."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scaling = self.head_dim ** -0.5
        self.in_proj = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout = dropout

    def forward(self, query: torch.Tensor) -> torch.Tensor:
        tgt_len, bsz, embed_dim = query.size()
        q, k, v = self.in_proj(query).chunk(3, dim=-1)
        q = q * self.scaling
        q = q.contiguous().view(tgt_len, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        k = k.contiguous().view(-1, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        v = v.contiguous().view(-1, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        attn_weights = torch.bmm(q, k.transpose(1, 2))
        attn_probs = F.dropout(F.softmax(attn_weights, dim=-1), p=self.dropout, training=self.training)
        attn = torch.bmm(attn_probs, v)
        attn = attn.transpose(0, 1).contiguous().view(tgt_len, bsz, embed_dim)
        return self.out_proj(attn)


class EncoderLayer(nn.Module):
    def __init__(self, args: EncoderArgs) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(args.embed_dim, args.heads, args.dropout)
        self.norm1 = nn.LayerNorm(args.embed_dim)
        self.norm2 = nn.LayerNorm(args.embed_dim)
        self.fc1 = nn.Linear(args.embed_dim, args.ffn_dim)
        self.fc2 = nn.Linear(args.ffn_dim, args.embed_dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.norm1(x + self.self_attn(x))
        return self.norm2(x + self.fc2(F.relu(self.fc1(x))))


class TransformerEncoder(nn.Module):
    def __init__(self, args: EncoderArgs) -> None:
        super().__init__()
        self.embed_tokens = nn.Embedding(args.vocab, args.embed_dim)
        self.embed_scale = math.sqrt(args.embed_dim)
        self.layers = nn.ModuleList([EncoderLayer(args) for _ in range(args.layers)])
        self.classifier = nn.Linear(args.embed_dim, args.vocab)

    def forward(self, src_tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed_scale * self.embed_tokens(src_tokens)
        x = x.transpose(0, 1)
        for layer in self.layers:
            x = layer(x)
        return self.classifier(x.transpose(0, 1))


def train(args: EncoderArgs, steps: int = 3) -> None:
    model = TransformerEncoder(args)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4, betas=(0.9, 0.98))
    for step in range(steps):
        tokens = torch.randint(0, args.vocab, (4, 12))
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, args.vocab), tokens.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    train(EncoderArgs())
