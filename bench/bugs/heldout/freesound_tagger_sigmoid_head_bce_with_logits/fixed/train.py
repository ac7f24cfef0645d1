"""Curated + noisy multi-label training (Freesound Audio Tagging style), on synthetic log-mel patches."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import TaggerCNN


def make_split(n, n_classes, seed):
    gen = torch.Generator().manual_seed(seed)
    mels = torch.randn(n, 1, 32, 48, generator=gen)
    labels = (torch.rand(n, n_classes, generator=gen) < 0.2).float()
    return TensorDataset(mels, labels)


def lwlrap_proxy(scores, labels):
    """Mean rank-precision of the true labels (a cheap stand-in for label-weighted LRAP)."""
    ranks = scores.argsort(dim=1, descending=True).argsort(dim=1).float() + 1
    hits = (labels * (1.0 / ranks)).sum() / labels.sum().clamp(min=1)
    return hits.item()


def train(model, curated, noisy, optimizer, criterion, noisy_weight):
    model.train()
    for (x, y), (xn, yn) in zip(curated, noisy):
        output = model(x)
        bce = criterion(output, y)
        output_noisy = model(xn)
        bce_noisy = criterion(output_noisy, yn)
        loss = bce + noisy_weight * bce_noisy
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", type=int, default=8)
    parser.add_argument("--noisy-weight", type=float, default=0.5)
    args = parser.parse_args([])
    torch.manual_seed(0)
    curated = DataLoader(make_split(32, args.classes, 0), batch_size=8, shuffle=True)
    noisy = DataLoader(make_split(32, args.classes, 1), batch_size=8, shuffle=True)
    model = TaggerCNN(args.classes)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(2):
        loss = train(model, curated, noisy, optimizer, criterion, args.noisy_weight)
        model.eval()
        with torch.no_grad():
            x, y = next(iter(curated))
            print(f"epoch {epoch} loss {loss:.4f} lwlrap~ {lwlrap_proxy(model(x), y):.3f}")


if __name__ == "__main__":
    main()
