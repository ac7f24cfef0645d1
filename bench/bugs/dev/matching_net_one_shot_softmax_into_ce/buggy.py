import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(), nn.MaxPool2d(2))


class Embedding(nn.Module):
    def __init__(self, channels=1, width=16):
        super().__init__()
        self.net = nn.Sequential(conv_block(channels, width), conv_block(width, width), conv_block(width, width))

    def forward(self, x):
        return self.net(x).flatten(1)


class MatchingNetwork(nn.Module):
    """One-shot: one support image per class, the query is classified by cosine attention over the support set."""

    def __init__(self, width=16):
        super().__init__()
        self.g = Embedding(width=width)

    def forward(self, support, query):
        s = F.normalize(self.g(support), dim=-1)
        q = F.normalize(self.g(query), dim=-1)
        similarities = q @ s.t()
        return F.softmax(similarities * 10.0, dim=1)


def sample_episode(n_way, n_query, generator):
    prototypes = torch.randn(n_way, 1, 28, 28, generator=generator)
    support = prototypes + 0.1 * torch.randn(n_way, 1, 28, 28, generator=generator)
    labels = torch.randint(0, n_way, (n_query,), generator=generator)
    query = prototypes[labels] + 0.1 * torch.randn(n_query, 1, 28, 28, generator=generator)
    return support, query, labels


def train_episodes(model, optimizer, criterion, episodes, n_way, n_query):
    g = torch.Generator().manual_seed(0)
    model.train()
    for episode in range(episodes):
        support, query, labels = sample_episode(n_way, n_query, g)
        preds = model(support, query)
        loss = criterion(preds, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (preds.argmax(1) == labels).float().mean()
    print(f"episode {episode}: loss {loss.item():.3f} acc {acc.item():.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--n-way", type=int, default=5)
    parser.add_argument("--n-query", type=int, default=10)
    parser.add_argument("--episodes", type=int, default=6)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = MatchingNetwork()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_episodes(model, optimizer, nn.CrossEntropyLoss(), args.episodes, args.n_way, args.n_query)
