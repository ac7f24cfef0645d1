import torch
import torch.nn as nn


class GridDetector(nn.Module):
    """YOLO-style grid head: per cell objectness, box and class logits."""

    def __init__(self, num_classes: int = 3, grid: int = 6) -> None:
        super().__init__()
        self.grid = grid
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
            nn.Conv2d(32, 32, 3, padding=1), nn.LeakyReLU(0.1), nn.AdaptiveAvgPool2d(grid),
        )
        self.pred = nn.Conv2d(32, 5 + num_classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pred(self.backbone(x)).permute(0, 2, 3, 1)
