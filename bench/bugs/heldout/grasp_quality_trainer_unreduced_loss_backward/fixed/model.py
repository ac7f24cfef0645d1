import torch
import torch.nn as nn


class GraspQualityNet(nn.Module):
    """Scores candidate grasps from a depth crop: one logit per crop."""

    def __init__(self, in_channels: int = 1, width: int = 16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_channels, width, 5, stride=2, padding=2),
            nn.ReLU(),
            nn.Conv2d(width, 2 * width, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(2 * width, 1)

    def forward(self, depth: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(depth).flatten(1)).squeeze(-1)
