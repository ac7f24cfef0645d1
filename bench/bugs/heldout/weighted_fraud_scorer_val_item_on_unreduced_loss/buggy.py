"""Fraud scorer trained with per-sample weights (an unreduced BCE), validated every epoch."""
import logging
from collections import defaultdict

import torch
import torch.nn as nn

logger = logging.getLogger("fraud")


class Scorer(nn.Module):
    def __init__(self, n_features=12, hidden=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 12, generator=g)
    y = (x[:, 0] + 0.3 * torch.randn(n, generator=g) > 1.0).float()
    amount = torch.rand(n, generator=g) * 100
    return x, y, amount


def batches(split, size):
    x, y, amount = split
    for i in range(0, len(x), size):
        yield x[i : i + size], y[i : i + size], amount[i : i + size]


def train_epoch(model, split, criterion, optimizer):
    model.train()
    for x, y, amount in batches(split, 8):
        weights = 1.0 + amount / 100.0
        loss = (criterion(model(x), y) * weights).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


@torch.no_grad()
def validate(model, split, criterion):
    model.eval()
    metrics = defaultdict(float)
    n_batches = 0
    for x, y, _ in batches(split, 8):
        logits = model(x)
        metrics["val_loss"] += criterion(logits, y).item()
        metrics["val_acc"] += ((logits > 0).float() == y).float().mean().item()
        n_batches += 1
    return {k: v / n_batches for k, v in metrics.items()}


def main(epochs=2):
    torch.manual_seed(0)
    train_split, val_split = make_split(48, 0), make_split(16, 1)
    model = Scorer()
    criterion = nn.BCEWithLogitsLoss(reduction="none")
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        train_epoch(model, train_split, criterion, optimizer)
        logger.info("epoch %d %s", epoch, validate(model, val_split, criterion))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
