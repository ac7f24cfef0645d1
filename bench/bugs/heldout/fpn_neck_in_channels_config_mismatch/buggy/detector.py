import torch.nn as nn
import torch.nn.functional as F

from backbone import ConvNeXt


class FPN(nn.Module):
    def __init__(self, in_channels, out_channels, num_outs):
        super().__init__()
        self.num_outs = num_outs
        self.lateral_convs = nn.ModuleList(nn.Conv2d(c, out_channels, 1) for c in in_channels)
        self.fpn_convs = nn.ModuleList(nn.Conv2d(out_channels, out_channels, 3, padding=1) for _ in in_channels)

    def forward(self, inputs):
        laterals = [conv(inputs[i]) for i, conv in enumerate(self.lateral_convs)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] = laterals[i - 1] + F.interpolate(laterals[i], size=laterals[i - 1].shape[2:])
        return [conv(lat) for conv, lat in zip(self.fpn_convs, laterals)][: self.num_outs]


class SimpleDetector(nn.Module):
    def __init__(self, backbone, neck, head):
        super().__init__()
        self.backbone = ConvNeXt(**backbone)
        self.neck = FPN(**neck)
        self.cls_head = nn.Conv2d(neck["out_channels"], head["num_classes"], 3, padding=1)

    def forward(self, img):
        feats = self.neck(self.backbone(img))
        return [self.cls_head(f) for f in feats]
