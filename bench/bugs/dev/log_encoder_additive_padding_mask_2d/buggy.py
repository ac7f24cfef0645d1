import math

import torch
from torch import nn
import torch.nn.functional as F


def padding_mask(lengths, max_len):
    """Additive mask: 0 on real tokens, -inf on padding, one row per sequence."""
    positions = torch.arange(max_len).unsqueeze(0)
    mask = torch.zeros(lengths.size(0), max_len)
    return mask.masked_fill(positions >= lengths.unsqueeze(1), float("-inf"))


class FullAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, additive_mask):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.n_heads, d // self.n_heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // self.n_heads)
        scores = scores + additive_mask
        attn = self.dropout(F.softmax(scores, dim=-1))
        return self.out((attn @ v).transpose(1, 2).reshape(b, n, d))


class LogEncoder(nn.Module):
    def __init__(self, vocab=100, d_model=32, n_heads=4, n_classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.attn = FullAttention(d_model, n_heads)
        self.norm = nn.LayerNorm(d_model)
        self.cls = nn.Linear(d_model, n_classes)

    def forward(self, tokens, lengths):
        x = self.embed(tokens)
        x = self.norm(x + self.attn(x, padding_mask(lengths, tokens.size(1))))
        return self.cls(x[:, 0])


def train(model: LogEncoder, steps=3):
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(steps):
        tokens = torch.randint(1, 100, (6, 16))
        lengths = torch.randint(4, 17, (6,))
        labels = torch.randint(0, 3, (6,))
        loss = F.cross_entropy(model(tokens, lengths), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    train(LogEncoder())
