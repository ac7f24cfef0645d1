import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from model import get_model


def parse_args():
    parser = argparse.ArgumentParser(description="train a small MNIST classifier")
    parser.add_argument("--model", default="cnn", choices=["cnn", "logreg"])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-3)
    return parser.parse_args([])


def fake_mnist(n: int = 64) -> TensorDataset:
    images = torch.rand(n, 1, 28, 28)
    labels = torch.randint(0, 10, (n,))
    return TensorDataset(images, labels)


def train_epoch(model, loader, optimizer):
    model.train()
    total = 0.0
    for images, labels in loader:
        optimizer.zero_grad()
        output = model(images)
        loss = F.cross_entropy(output, labels)
        loss.backward()
        optimizer.step()
        total += loss.item() * images.size(0)
    return total / len(loader.dataset)


def main():
    args = parse_args()
    model = get_model(args.model)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loader = DataLoader(fake_mnist(), batch_size=args.batch_size, shuffle=True)
    for epoch in range(args.epochs):
        print(f"epoch {epoch}: loss {train_epoch(model, loader, optimizer):.4f}")


if __name__ == "__main__":
    main()
