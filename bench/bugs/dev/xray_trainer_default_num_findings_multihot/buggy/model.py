import torch
import torch.nn as nn


class DenseishNet(nn.Module):
    """Small stand-in for DenseNet-121 with a multi-label head (one logit per finding)."""

    def __init__(self, num_classes: int = 14, growth: int = 12) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 2 * growth, 3, padding=1), nn.BatchNorm2d(2 * growth), nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(2 * growth, 4 * growth, 3, padding=1), nn.BatchNorm2d(4 * growth), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(4 * growth, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(self.features(x).flatten(1))
