import torch
import torch.nn as nn


class RangeNet(nn.Module):
    """Segments a (range, intensity) projection of a LiDAR sweep into classes, pixel by pixel."""

    def __init__(self, in_ch: int = 2, n_classes: int = 4, width: int = 16):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(in_ch, width, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(width, width, 3, stride=2, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(width, width, 2, stride=2)
        self.classifier = nn.Conv2d(width + in_ch, n_classes, 1)

    def forward(self, x):
        return self.classifier(torch.cat([self.up(self.down(x)), x], dim=1))
