import torch
import torch.nn as nn


class ResBlock1d(nn.Module):
    def __init__(self, channels: int, kernel: int = 7) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(channels, channels, kernel, padding=kernel // 2)
        self.bn1 = nn.BatchNorm1d(channels)
        self.conv2 = nn.Conv1d(channels, channels, kernel, padding=kernel // 2)
        self.bn2 = nn.BatchNorm1d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(y)))


class BeatClassifier(nn.Module):
    def __init__(self, n_leads: int = 3, width: int = 32, n_classes: int = 4) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv1d(n_leads, width, 15, stride=2, padding=7), nn.BatchNorm1d(width), nn.ReLU())
        self.blocks = nn.Sequential(ResBlock1d(width), ResBlock1d(width))
        self.pool = nn.AdaptiveAvgPool1d(1)
        self.fc = nn.Linear(width, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks(self.stem(x))
        return self.fc(self.pool(x).flatten(1))
