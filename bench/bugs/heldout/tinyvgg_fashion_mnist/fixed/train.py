import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from model import TinyVGG


class FakeFashion(Dataset):
    """Stands in for torchvision's FashionMNIST: 1x28x28 images, 10 classes."""

    def __init__(self, n: int, seed: int = 0) -> None:
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n, 1, 28, 28, generator=g)
        self.labels = torch.randint(0, 10, (n,), generator=g)

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


def accuracy_fn(y_true: torch.Tensor, y_pred: torch.Tensor) -> float:
    return (y_true == y_pred).sum().item() / len(y_pred) * 100


def train_step(model: nn.Module, loader: DataLoader, loss_fn: nn.Module, optimizer: torch.optim.Optimizer):
    model.train()
    train_loss, train_acc = 0.0, 0.0
    for X, y in loader:
        y_pred = model(X)
        loss = loss_fn(y_pred, y)
        train_loss += loss.item()
        train_acc += accuracy_fn(y, y_pred.argmax(dim=1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return train_loss / len(loader), train_acc / len(loader)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden-units", type=int, default=10)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.1)
    args = parser.parse_args([])

    torch.manual_seed(42)
    loader = DataLoader(FakeFashion(64), batch_size=32, shuffle=True)
    model = TinyVGG(input_shape=1, hidden_units=args.hidden_units, output_shape=10)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(params=model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        loss, acc = train_step(model, loader, loss_fn, optimizer)
        print(f"epoch {epoch} | loss {loss:.4f} | acc {acc:.2f}%")


if __name__ == "__main__":
    main()
