import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from losses import FocalLoss

FINDINGS = ["diabetic_retinopathy", "glaucoma", "cataract", "amd", "hypertensive", "myopia"]


class FundusDataset(Dataset):
    def __init__(self, n=64, size=48):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, size, size, generator=g)
        self.labels = (torch.rand(n, len(FINDINGS), generator=g) > 0.8).float()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class FundusNet(nn.Module):
    def __init__(self, n_labels=len(FINDINGS)):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(32, n_labels)

    def forward(self, x):
        return self.head(self.features(x))


def main():
    model = FundusNet()
    criterion = FocalLoss(alpha=0.25, gamma=2.0)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(FundusDataset(), batch_size=16, shuffle=True)
    for epoch in range(2):
        for images, labels in loader:
            logits = model(images)
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} focal {loss.item():.4f}")


if __name__ == "__main__":
    main()
