import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class PairEncoder(nn.Module):
    """Scores how correlated two feature vectors are."""

    def __init__(self, in_dim=12, hidden=24):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(in_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden))
        self.scale = nn.Parameter(torch.tensor(5.0))

    def forward(self, a, b):
        za, zb = F.normalize(self.proj(a), dim=-1), F.normalize(self.proj(b), dim=-1)
        return self.scale * (za * zb).sum(-1)


class Trainer:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    def run_epoch(self, loader, training=True):
        self.model.train(training)
        total, batches = 0.0, 0
        if training:
            self.optimizer.zero_grad()
        for a, b, label in loader:
            with torch.set_grad_enabled(training):
                logits = self.model(a, b)
                loss = F.binary_cross_entropy_with_logits(logits, label)
            if training:
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args.clip)
                self.optimizer.step()
            total += loss.item()
            batches += 1
        return total / batches


def make_pairs(n=48, dim=12):
    a = torch.randn(n, dim)
    label = torch.randint(0, 2, (n,)).float()
    b = torch.where(label[:, None].bool(), a + 0.1 * torch.randn(n, dim), torch.randn(n, dim))
    return TensorDataset(a, b, label)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--clip", type=float, default=0.25)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args([])
    trainer = Trainer(PairEncoder(), args)
    train_loader = DataLoader(make_pairs(), batch_size=8, shuffle=True)
    val_loader = DataLoader(make_pairs(16), batch_size=8)
    for epoch in range(args.epochs):
        train_loss = trainer.run_epoch(train_loader)
        val_loss = trainer.run_epoch(val_loader, training=False)
        print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f}")


if __name__ == "__main__":
    main()
