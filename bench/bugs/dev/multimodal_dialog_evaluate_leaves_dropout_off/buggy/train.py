import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from model import HierarchicalEncoder


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--vocab", type=int, default=40)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--lr", type=float, default=1e-3)
    return p.parse_args([])


def make_loader(n, vocab, shuffle):
    turns = torch.randint(1, vocab, (n, 3, 5))
    images = torch.randn(n, 20)
    targets = torch.randint(1, vocab, (n,))
    return DataLoader(TensorDataset(turns, images, targets), batch_size=4, shuffle=shuffle)


class Trainer:
    def __init__(self, model, args):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    def train_epoch(self, loader):
        total = 0.0
        for turns, images, targets in loader:
            self.optimizer.zero_grad()
            loss = F.cross_entropy(self.model(turns, images), targets)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(loader)

    def evaluate(self, loader):
        self.model.eval()
        with torch.no_grad():
            losses = [F.cross_entropy(self.model(t, i), y).item() for t, i, y in loader]
        return sum(losses) / len(losses)


def main():
    args = get_args()
    train_loader = make_loader(16, args.vocab, shuffle=True)
    val_loader = make_loader(8, args.vocab, shuffle=False)
    trainer = Trainer(HierarchicalEncoder(args.vocab), args)
    trainer.model.train()
    for epoch in range(args.epochs):
        train_loss = trainer.train_epoch(train_loader)
        val_loss = trainer.evaluate(val_loader)
        print(f"epoch {epoch}: train {train_loss:.3f} valid {val_loss:.3f}")


if __name__ == "__main__":
    main()
