from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


@dataclass
class TrainConfig:
    image_size: int = 128
    num_classes: int = 4
    batch_size: int = 8
    epochs: int = 1
    lr: float = 1e-3


class LeafImages(Dataset):
    """Stands in for an ImageFolder of leaf photos already resized to image_size."""

    def __init__(self, cfg: TrainConfig, n: int = 32):
        self.images = torch.rand(n, 3, cfg.image_size, cfg.image_size)
        self.labels = torch.randint(0, cfg.num_classes, (n,))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class ConvNet(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, kernel_size=3, stride=1, padding=1)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3, stride=1, padding=1)
        self.conv3 = nn.Conv2d(8, 16, kernel_size=3, stride=1, padding=1)
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.fc = nn.Linear(16 * 16 * 16, num_classes)

    def forward(self, X):
        X = self.pool(F.relu(self.conv1(X)))
        X = self.pool(F.relu(self.conv2(X)))
        X = self.pool(F.relu(self.conv3(X)))
        X = X.view(X.size(0), -1)
        return self.fc(X)


def run(cfg: TrainConfig):
    loader = DataLoader(LeafImages(cfg), batch_size=cfg.batch_size, shuffle=True)
    model = ConvNet(num_classes=cfg.num_classes)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        model.train()
        running, correct = 0.0, 0
        for images, labels in loader:
            optimizer.zero_grad()
            outputs = model(images)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
            running += loss.item()
            correct += (outputs.argmax(1) == labels).sum().item()
        print(epoch, running / len(loader), correct / len(loader.dataset))


if __name__ == "__main__":
    run(TrainConfig())
