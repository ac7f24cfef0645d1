import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from model import UNet3Plus


class CellDataset(Dataset):
    """Grayscale microscopy crops and their binary masks (stand-in for the PNG loader)."""

    def __init__(self, n: int, size: int) -> None:
        self.images = torch.rand(n, 1, size, size)
        self.masks = (torch.rand(n, 1, size, size) > 0.5).float()

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        return self.images[i], self.masks[i]


def train_net(net: nn.Module, loader: DataLoader, epochs: int, lr: float) -> None:
    optimizer = torch.optim.RMSprop(net.parameters(), lr=lr, weight_decay=1e-8, momentum=0.9)
    criterion = nn.BCEWithLogitsLoss()
    net.train()
    for epoch in range(epochs):
        epoch_loss = 0.0
        for imgs, true_masks in loader:
            masks_pred = net(imgs)
            loss = criterion(masks_pred, true_masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(f"epoch {epoch + 1}: {epoch_loss / len(loader):.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--batch-size", type=int, default=2)
    args = parser.parse_args([])
    loader = DataLoader(CellDataset(4, 32), batch_size=args.batch_size, shuffle=True)
    net = UNet3Plus(n_channels=1, n_classes=1)
    train_net(net, loader, args.epochs, args.lr)
