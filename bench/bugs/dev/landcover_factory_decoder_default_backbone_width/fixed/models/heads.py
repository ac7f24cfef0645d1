import torch.nn as nn
import torch.nn.functional as F


class UpsampleDecoder(nn.Module):
    def __init__(self, num_classes: int, in_channels: int = 128, mid_channels: int = 64) -> None:
        super().__init__()
        self.reduce = nn.Sequential(nn.Conv2d(in_channels, mid_channels, 3, padding=1), nn.ReLU(inplace=True))
        self.classify = nn.Conv2d(mid_channels, num_classes, 1)

    def forward(self, feats, out_size):
        logits = self.classify(self.reduce(feats))
        return F.interpolate(logits, size=out_size, mode="bilinear", align_corners=False)
