import torch
import torch.nn as nn
import torch.nn.functional as F


class SegHead(nn.Module):
    """Per-pixel lane id logits (background + one channel per lane), upsampled to the input size."""

    def __init__(self, in_channels, num_lanes):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, num_lanes + 1, 1)

    def forward(self, feat, size):
        return F.interpolate(self.conv(feat), size=size, mode="bilinear", align_corners=False)


class ExistHead(nn.Module):
    """Whether each lane slot is present in the image."""

    def __init__(self, in_channels, num_lanes, hidden=32, dropout=0.1):
        super().__init__()
        self.reduce = nn.Conv2d(in_channels, 8, 1)
        self.pool = nn.AdaptiveAvgPool2d((4, 8))
        self.dropout = nn.Dropout(dropout)
        self.fc1 = nn.Linear(8 * 4 * 8, hidden)
        self.fc2 = nn.Linear(hidden, num_lanes)

    def forward(self, feat):
        x = self.pool(F.relu(self.reduce(feat))).flatten(1)
        x = F.relu(self.fc1(self.dropout(x)))
        return torch.sigmoid(self.fc2(x))
