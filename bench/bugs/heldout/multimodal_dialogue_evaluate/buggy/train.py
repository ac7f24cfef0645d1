import argparse

import torch
import torch.nn as nn

from evaluation import evaluate
from model import HierarchicalEncoder


def make_batches(n_batches, batch_size=6, n_turns=3, n_words=7, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randint(0, 300, (batch_size, n_turns, n_words), generator=g),
             torch.randn(batch_size, 20, generator=g),
             torch.randint(0, 6, (batch_size,), generator=g)) for _ in range(n_batches)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = HierarchicalEncoder()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    train_batches, val_batches = make_batches(4), make_batches(2, seed=1)
    for epoch in range(args.epochs):
        for turns, image, target in train_batches:
            optimizer.zero_grad()
            loss = criterion(model(turns, image), target)
            loss.backward()
            optimizer.step()
        val_loss, val_acc = evaluate(model, val_batches, criterion)
        print(f"epoch {epoch}: train {loss.item():.3f} val {val_loss:.3f} acc {val_acc:.2f}")


if __name__ == "__main__":
    main()
