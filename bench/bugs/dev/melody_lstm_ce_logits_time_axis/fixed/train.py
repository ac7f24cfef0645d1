import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from model import DeepBeats


def build_loader(n: int, seq_len: int, batch_size: int) -> DataLoader:
    rhythm = torch.rand(n, seq_len, 2)
    notes = torch.randint(0, 128, (n, seq_len + 1))
    return DataLoader(TensorDataset(rhythm, notes[:, :-1], notes[:, 1:]), batch_size=batch_size, shuffle=True)


def train(args: argparse.Namespace) -> None:
    model = DeepBeats()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loader = build_loader(32, args.seq_len, args.batch_size)
    for epoch in range(args.epochs):
        model.train()
        for rhythm, notes_in, target in loader:
            pred = model(rhythm, notes_in)
            loss = loss_fn(pred.reshape(-1, pred.size(-1)), target.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seq-len", type=int, default=24)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--epochs", type=int, default=1)
    train(parser.parse_args([]))
