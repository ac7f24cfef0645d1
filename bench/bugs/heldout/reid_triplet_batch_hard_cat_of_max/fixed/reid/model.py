import torch.nn as nn
import torch.nn.functional as F


class EmbeddingNet(nn.Module):
    """A small stand-in for the ResNet-50 trunk: pooled conv features, then an embedding."""

    def __init__(self, feat_dim=64):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(inplace=True),
            nn.Conv2d(16, 32, 3, stride=2, padding=1),
            nn.BatchNorm2d(32),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1),
        )
        self.embed = nn.Linear(32, feat_dim)

    def forward(self, x):
        f = self.trunk(x).flatten(1)
        return F.normalize(self.embed(f), dim=1)
