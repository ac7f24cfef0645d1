import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_CLASSES = 18


class SimpleNet(nn.Module):
    """Conv -> pool -> conv -> pool -> two fully connected layers, on 4-channel cell crops."""

    def __init__(self, image_size, n_classes=N_CLASSES):
        super().__init__()
        self.image_size = image_size
        self.conv1 = nn.Conv2d(4, 8, 3)
        self.conv2 = nn.Conv2d(8, 16, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(16 * 30 * 30, 64)
        self.fc2 = nn.Linear(64, n_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 30 * 30)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


def train_epoch(model, loader, criterion, optimizer):
    model.train()
    for inputs, labels in loader:
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    parser = argparse.ArgumentParser(description="Train on slices of the Human Protein Atlas images")
    parser.add_argument("--N", type=int, default=64, help="size of a slice in pixels")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args([])
    torch.manual_seed(0)
    images = torch.rand(32, 4, args.N, args.N)
    labels = (torch.rand(32, N_CLASSES) < 0.2).float()
    loader = DataLoader(TensorDataset(images, labels), batch_size=args.batch, shuffle=True)
    model = SimpleNet(args.N)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(args.epochs):
        print(epoch, train_epoch(model, loader, criterion, optimizer))


if __name__ == "__main__":
    main()
