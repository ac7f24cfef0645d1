import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from model import CandidateScorer


class WikiHopStub(Dataset):
    def __init__(self, n=16, nodes=10, feat=12):
        g = torch.Generator().manual_seed(0)
        self.feats = torch.randn(n, nodes, feat, generator=g)
        self.adj = (torch.rand(n, nodes, nodes, generator=g) > 0.7).float()
        self.mask = torch.ones(n, nodes, dtype=torch.bool)
        self.mask[:, 6:] = False
        self.answer = torch.randint(0, 6, (n,), generator=g)

    def __len__(self):
        return len(self.answer)

    def __getitem__(self, i):
        return self.feats[i], self.adj[i], self.mask[i], self.answer[i]


def train(model, loader, optimizer, criterion, epochs):
    for epoch in range(epochs):
        model.train()
        correct = 0
        for feats, adj, mask, answer in loader:
            optimizer.zero_grad()
            y_pred = model(feats, adj, mask)
            loss = criterion(y_pred, answer)
            loss.backward()
            optimizer.step()
            correct += (y_pred.argmax(-1) == answer).sum().item()
        print(f"epoch {epoch}: loss {loss.item():.4f} acc {correct / len(loader.dataset):.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])
    model = CandidateScorer()
    loader = DataLoader(WikiHopStub(), batch_size=4, shuffle=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    train(model, loader, optimizer, nn.CrossEntropyLoss(), args.epochs)
