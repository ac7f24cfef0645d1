import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from model import WideResNet


class TinyImageNetSubset(Dataset):
    """64x64 RGB crops with their class index (random tensors stand in for the JPEGs)."""

    def __init__(self, n: int, num_classes: int) -> None:
        self.x = torch.randn(n, 3, 64, 64)
        self.y = torch.randint(0, num_classes, (n,))

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        return self.x[i], self.y[i]


def run_epoch(model: nn.Module, loader: DataLoader, criterion: nn.Module, optimizer: torch.optim.Optimizer) -> float:
    model.train()
    total = 0.0
    for images, labels in loader:
        pred = model(images)
        loss = criterion(pred, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="WRN with cutout")
    parser.add_argument("--num-classes", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args([])
    loader = DataLoader(TinyImageNetSubset(8, args.num_classes), batch_size=args.batch_size, shuffle=True)
    model = WideResNet(depth=10, num_classes=args.num_classes)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=5e-4)
    for epoch in range(args.epochs):
        print(epoch, run_epoch(model, loader, nn.CrossEntropyLoss(), optimizer))
