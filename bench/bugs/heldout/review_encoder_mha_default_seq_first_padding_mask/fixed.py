"""Review rating model: token embeddings, one self-attention layer with a padding mask, masked mean pooling."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0
log = logging.getLogger("reviews")


def pad_batch(seqs, pad=PAD):
    longest = max(len(s) for s in seqs)
    out = torch.full((len(seqs), longest), pad, dtype=torch.long)
    for i, s in enumerate(seqs):
        out[i, : len(s)] = torch.tensor(s)
    return out


class ReviewEncoder(nn.Module):
    def __init__(self, vocab, dim=32, heads=4, n_ratings=5):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.pos = nn.Parameter(torch.zeros(1, 64, dim))
        self.attn = nn.MultiheadAttention(dim, heads, dropout=0.1, batch_first=True)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_ratings)

    def forward(self, tokens):
        pad_mask = tokens.eq(PAD)
        h = self.embed(tokens) + self.pos[:, : tokens.size(1)]
        attn_out, _ = self.attn(h, h, h, key_padding_mask=pad_mask)
        h = self.norm(h + attn_out)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.head(pooled)


def synthetic_reviews(n, vocab, g):
    lengths = torch.randint(4, 12, (n,), generator=g).tolist()
    seqs = [torch.randint(1, vocab, (L,), generator=g).tolist() for L in lengths]
    ratings = torch.randint(0, 5, (n,), generator=g)
    return seqs, ratings


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args([])
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    vocab = 200
    seqs, ratings = synthetic_reviews(16, vocab, g)
    model = ReviewEncoder(vocab)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(args.steps):
        idx = torch.randperm(len(seqs), generator=g)[: args.batch_size]
        tokens = pad_batch([seqs[i] for i in idx])
        opt.zero_grad()
        loss = F.cross_entropy(model(tokens), ratings[idx])
        loss.backward()
        opt.step()
        log.info("step %d loss %.3f", step, loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
