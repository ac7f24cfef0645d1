import torch
import torch.nn as nn
import torch.nn.functional as F


class WeightedFusion(nn.Module):
    """Fast normalised fusion: relu(w) / (sum(relu(w)) + eps) weighted sum of resized inputs."""

    def __init__(self, cfg):
        super().__init__()
        self.eps = cfg.eps
        self.weights = nn.Parameter(torch.tensor(cfg.fusion_init, dtype=torch.float32))
        self.conv = nn.Conv2d(cfg.channels, cfg.channels, 3, padding=1)

    def forward(self, feats):
        size = feats[0].shape[-2:]
        w = F.relu(self.weights)
        w = w / (w.sum() + self.eps)
        fused = sum(wi * F.interpolate(f, size=size, mode="nearest") for wi, f in zip(w, feats))
        return self.conv(F.silu(fused))


class TinyDetectorNeck(nn.Module):
    def __init__(self, cfg, num_classes):
        super().__init__()
        self.stem = nn.ModuleList(
            nn.Conv2d(3, cfg.neck.channels, 3, stride=2 ** (i + 1), padding=1) for i in range(cfg.neck.num_levels)
        )
        self.fuse = WeightedFusion(cfg.neck)
        self.head = nn.Conv2d(cfg.neck.channels, num_classes, 1)

    def forward(self, images):
        feats = [conv(images) for conv in self.stem]
        return self.head(self.fuse(feats))
