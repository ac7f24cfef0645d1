import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from model import Darknet


class ShapesDataset(Dataset):
    def __init__(self, n=64, size=32, num_classes=5):
        g = torch.Generator().manual_seed(0)
        self.images = torch.randn(n, 3, size, size, generator=g)
        self.labels = torch.randint(0, num_classes, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--lr", type=float, default=1e-3)
    return p.parse_args([])


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = Darknet(num_classes=5)
    print(f"{sum(p.numel() for p in model.parameters())} trainable parameters")
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    criterion = nn.CrossEntropyLoss()
    loader = DataLoader(ShapesDataset(), batch_size=args.batch_size, shuffle=True)
    for epoch in range(args.epochs):
        model.train()
        for images, labels in loader:
            optimizer.zero_grad()
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")
    torch.save(model.state_dict(), "darknet.pt")


if __name__ == "__main__":
    main()
