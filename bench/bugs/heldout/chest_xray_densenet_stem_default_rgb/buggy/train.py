import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from model import TinyDenseNet

CFG = {"num_classes": 2, "image_size": 64, "batch_size": 8, "epochs": 2, "lr": 1e-3}


class XrayDataset(Dataset):
    """Single-channel radiographs, normalised with the dataset's own mean and std."""

    def __init__(self, n: int, size: int):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, size, size, generator=g)
        self.labels = torch.randint(0, 2, (n,), generator=g)
        self.images[self.labels == 1, size // 4: size // 2, size // 4: size // 2] += 0.5
        self.mean, self.std = self.images.mean(), self.images.std()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        image = (self.images[i] - self.mean) / self.std
        return image.unsqueeze(0), self.labels[i]


def train(model: TinyDenseNet, loader: DataLoader, epochs: int, lr: float):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        correct = 0
        for images, labels in loader:
            logits = model(images)
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(1) == labels).sum().item()
        print(f"epoch {epoch} loss {loss.item():.3f} acc {correct / len(loader.dataset):.2f}")


if __name__ == "__main__":
    loader = DataLoader(XrayDataset(48, CFG["image_size"]), batch_size=CFG["batch_size"], shuffle=True)
    model = TinyDenseNet(num_classes=CFG["num_classes"])
    train(model, loader, CFG["epochs"], CFG["lr"])
