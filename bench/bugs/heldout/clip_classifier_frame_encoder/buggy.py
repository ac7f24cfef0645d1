from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


@dataclass
class Config:
    num_classes: int = 5
    frames: int = 4
    size: int = 32
    width: int = 16
    batch_size: int = 4
    lr: float = 1e-3


class RandomClips(Dataset):
    def __init__(self, cfg: Config, n: int = 16):
        g = torch.Generator().manual_seed(0)
        self.clips = torch.randn(n, 3, cfg.frames, cfg.size, cfg.size, generator=g)
        self.labels = torch.randint(0, cfg.num_classes, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.clips[idx], self.labels[idx]


class FrameEncoder(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            nn.Conv2d(width, width * 2, 3, stride=2, padding=1), nn.BatchNorm2d(width * 2), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1),
        )

    def forward(self, x):
        return self.features(x).flatten(1)


class ClipClassifier(nn.Module):
    """Shares a 2D encoder across the frames of a clip (batch, channels, time, height, width)."""

    def __init__(self, cfg: Config):
        super().__init__()
        self.encoder = FrameEncoder(cfg.width)
        self.head = nn.Linear(cfg.width * 2, cfg.num_classes)

    def forward(self, clips):
        b, c, t, h, w = clips.shape
        frames = clips.transpose(1, 2).reshape(-1, c, h, w)
        feats = self.encoder(frames)
        return self.head(feats)


def train_epoch(model, loader, optimizer):
    model.train()
    total = 0.0
    for clips, labels in loader:
        logits = model(clips)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


if __name__ == "__main__":
    cfg = Config()
    torch.manual_seed(0)
    loader = DataLoader(RandomClips(cfg), batch_size=cfg.batch_size, shuffle=True)
    model = ClipClassifier(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(2):
        print(epoch, train_epoch(model, loader, optimizer))
