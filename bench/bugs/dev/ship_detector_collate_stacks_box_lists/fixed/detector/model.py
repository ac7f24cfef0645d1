import torch
import torch.nn as nn


class CenterHead(nn.Module):
    def __init__(self, channels: int = 32, num_classes: int = 2) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, channels, 3, stride=2, padding=1), nn.BatchNorm2d(channels), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, stride=2, padding=1), nn.BatchNorm2d(channels), nn.ReLU(),
        )
        self.heatmap = nn.Conv2d(channels, num_classes, 1)
        self.stride = 4

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.heatmap(self.body(images))
