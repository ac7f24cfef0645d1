import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CLASSES = ["visible", "hazy", "foggy"]


class VisibilityDataset(Dataset):
    """Photos decoded to HxWxC uint8 arrays (as cv2/PIL give them) with a visibility class."""

    def __init__(self, n=24, size=48, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.integers(0, 256, size=(n, size, size, 3), dtype=np.uint8)
        self.labels = rng.integers(0, len(CLASSES), size=n)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image = torch.from_numpy(self.images[idx]).float() / 255.0
        return image, int(self.labels[idx])


class VisibilityNet(nn.Module):
    def __init__(self, num_classes=len(CLASSES)):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=5, stride=2), nn.ReLU(),
            nn.Conv2d(16, 32, kernel_size=3, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def run_epoch(model, loader, criterion, optimizer):
    running_loss = 0.0
    for images, labels in loader:
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    return running_loss / len(loader)


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(VisibilityDataset(), batch_size=8, shuffle=True)
    model = VisibilityNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        print(epoch, run_epoch(model, loader, nn.CrossEntropyLoss(), optimizer))
