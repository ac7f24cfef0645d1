"""Session-based recommendation with a hypergraph item encoder (DHCN-like); Recall@K on a held-out split."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class HyperConv(nn.Module):
    def __init__(self, layers=2):
        super().__init__()
        self.layers = layers

    def forward(self, adjacency, embedding):
        item_embeddings = embedding
        final = [item_embeddings]
        for _ in range(self.layers):
            item_embeddings = adjacency @ item_embeddings
            final.append(item_embeddings)
        return torch.stack(final).sum(0) / (self.layers + 1)


class DHCN(nn.Module):
    def __init__(self, n_items, emb_size=16):
        super().__init__()
        self.embedding = nn.Embedding(n_items, emb_size)
        self.hyper = HyperConv()
        self.pos = nn.Embedding(20, emb_size)
        self.w = nn.Linear(2 * emb_size, emb_size)

    def session_repr(self, item_emb, sessions):
        seq = item_emb[sessions]
        pos = self.pos(torch.arange(sessions.shape[1]))[None]
        h = torch.tanh(self.w(torch.cat([seq, pos.expand_as(seq)], -1)))
        return h.mean(1)

    def forward(self, adjacency, sessions):
        item_emb = self.hyper(adjacency, self.embedding.weight)
        sess = self.session_repr(item_emb, sessions)
        return sess @ item_emb.t()


def build_adjacency(sessions, n_items):
    inc = torch.zeros(n_items, len(sessions))
    for j, s in enumerate(sessions):
        inc[s, j] = 1.0
    deg_v = inc.sum(1).clamp(min=1)
    deg_e = inc.sum(0).clamp(min=1)
    return (inc / deg_v[:, None]) @ (inc / deg_e).t()


def recall_at_k(model, adjacency, sessions, targets, k=5):
    model.eval()
    scores = model(adjacency, sessions)
    top = np.argsort(-scores.numpy(), axis=1)[:, :k]
    return float(np.mean([t in row for t, row in zip(targets.tolist(), top)]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args([])
    torch.manual_seed(0)
    sessions = torch.randint(0, args.items, (64, 6))
    targets = (sessions[:, -1] + 1) % args.items
    adjacency = build_adjacency(sessions, args.items)
    model = DHCN(args.items)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        model.train()
        scores = model(adjacency, sessions[:48])
        loss = F.cross_entropy(scores, targets[:48])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f} recall@5 {recall_at_k(model, adjacency, sessions[48:], targets[48:]):.3f}")


if __name__ == "__main__":
    main()
