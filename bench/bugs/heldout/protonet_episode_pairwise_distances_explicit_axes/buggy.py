"""Prototypical network episodes: class prototypes from the support set, squared distances to every query."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Embedder(nn.Module):
    def __init__(self, d_in=20, d_emb=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d_emb))

    def forward(self, x):
        return self.net(x)


def squared_distances(queries, prototypes):
    # (Q, D) queries against (N, D) prototypes -> (Q, N)
    diff = queries[:, None, :] - prototypes[None, :, :]
    return diff.pow(2).sum(dim=-1)


def episode(n_way, k_shot, n_query, g, d_in=20):
    centers = torch.randn(n_way, d_in, generator=g) * 2
    support = centers.repeat_interleave(k_shot, 0) + torch.randn(n_way * k_shot, d_in, generator=g)
    query = centers.repeat_interleave(n_query, 0) + torch.randn(n_way * n_query, d_in, generator=g)
    return support, query, torch.arange(n_way).repeat_interleave(n_query)


def main(episodes=4, n_way=5, k_shot=3, n_query=4):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = Embedder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for ep in range(episodes):
        support, query, target = episode(n_way, k_shot, n_query, g)
        prototypes = model(support).view(n_way, k_shot, -1).mean(dim=1)
        logits = -squared_distances(model(query), prototypes)
        loss = F.cross_entropy(logits, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc = (logits.argmax(1) == target).float().mean().item()
        print(f"episode {ep}: loss {loss.item():.3f} acc {acc:.2f}")


if __name__ == "__main__":
    main()
