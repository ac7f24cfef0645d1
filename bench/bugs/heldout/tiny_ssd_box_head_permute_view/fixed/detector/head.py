import torch
import torch.nn as nn


class SSDHead(nn.Module):
    """Per-location box regression and classification for a single feature map."""

    def __init__(self, in_channels: int, num_anchors: int = 6, num_classes: int = 4):
        super().__init__()
        self.num_anchors = num_anchors
        self.num_classes = num_classes
        self.loc = nn.Conv2d(in_channels, num_anchors * 4, kernel_size=3, padding=1)
        self.conf = nn.Conv2d(in_channels, num_anchors * num_classes, kernel_size=3, padding=1)

    def forward(self, feature: torch.Tensor):
        b = feature.shape[0]
        loc = self.loc(feature).permute(0, 2, 3, 1).contiguous()
        conf = self.conf(feature).permute(0, 2, 3, 1).contiguous()
        boxes = loc.view(b, -1, 4)
        scores = conf.view(b, -1, self.num_classes)
        return boxes, scores
