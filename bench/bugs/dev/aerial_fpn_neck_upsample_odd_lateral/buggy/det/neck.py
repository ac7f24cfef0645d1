import torch.nn as nn
import torch.nn.functional as F


class FPN(nn.Module):
    def __init__(self, in_channels, out_channels=32):
        super().__init__()
        self.lateral_convs = nn.ModuleList(nn.Conv2d(c, out_channels, 1) for c in in_channels)
        self.fpn_convs = nn.ModuleList(nn.Conv2d(out_channels, out_channels, 3, padding=1) for _ in in_channels)

    def forward(self, inputs):
        laterals = [conv(x) for conv, x in zip(self.lateral_convs, inputs)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] = laterals[i - 1] + F.interpolate(laterals[i], scale_factor=2, mode="nearest")
        return [conv(lat) for conv, lat in zip(self.fpn_convs, laterals)]


class Detector(nn.Module):
    def __init__(self, backbone, num_classes, num_anchors=3):
        super().__init__()
        self.backbone = backbone
        self.neck = FPN(backbone.out_channels)
        self.cls_head = nn.Conv2d(32, num_anchors * num_classes, 3, padding=1)
        self.num_classes = num_classes

    def forward(self, images):
        feats = self.neck(self.backbone(images))
        return [self.cls_head(f) for f in feats]
