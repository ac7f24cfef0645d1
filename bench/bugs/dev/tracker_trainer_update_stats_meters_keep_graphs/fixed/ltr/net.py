import torch
import torch.nn as nn
import torch.nn.functional as F


class SiameseTracker(nn.Module):
    """Cross-correlates template features over search features to produce a response map."""

    def __init__(self, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3), nn.BatchNorm2d(width), nn.ReLU(),
        )
        self.adjust = nn.Conv2d(1, 1, 1)

    def forward(self, template, search):
        z, x = self.features(template), self.features(search)
        n, c, h, w = x.shape
        response = F.conv2d(x.reshape(1, n * c, h, w), z, groups=n)
        return self.adjust(response.reshape(n, 1, *response.shape[-2:]))
