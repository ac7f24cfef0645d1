import torch
import torch.nn as nn


class SpatialAttention(nn.Module):
    """Predicts a spatial attention map over feature positions; the border is suppressed (padding artefacts)."""

    def __init__(self, channels: int, polish: bool = True):
        super().__init__()
        self.score = nn.Sequential(nn.Conv2d(channels, channels // 4, 1), nn.ReLU(), nn.Conv2d(channels // 4, 1, 1))
        self.polish = polish

    def forward(self, feats):
        att = torch.sigmoid(self.score(feats))
        if self.polish:
            att = att.clone()
            att[:, :, 0, :] = 0
            att[:, :, -1, :] = 0
            att[:, :, :, 0] = 0
            att[:, :, :, -1] = 0
        return feats * att


class Branch(nn.Module):
    def __init__(self, width: int = 32, dim: int = 64):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, width, 3, 2, 1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, 2, 1), nn.BatchNorm2d(width), nn.ReLU(),
        )
        self.attention = SpatialAttention(width)
        self.proj = nn.Linear(width, dim)

    def forward(self, image):
        feats = self.attention(self.backbone(image))
        return nn.functional.normalize(self.proj(feats.mean(dim=(2, 3))), dim=-1)
