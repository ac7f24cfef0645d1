import torch
from torch import nn


def conv_bn(c_in, c_out, stride=1):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.LeakyReLU(0.1),
    )


class YoloHead(nn.Module):
    def __init__(self, in_channels, num_classes, num_anchors=3):
        super().__init__()
        self.num_classes = num_classes
        self.num_anchors = num_anchors
        self.pred = nn.Conv2d(in_channels, num_anchors * (5 + num_classes), 1)

    def forward(self, feature):
        b, _, h, w = feature.shape
        p = self.pred(feature).view(b, self.num_anchors, 5 + self.num_classes, h, w)
        p = p.permute(0, 1, 3, 4, 2).contiguous()
        return {
            "xywh": p[..., :4],
            "conf": p[..., 4],
            "cls": p[..., 5:],
        }


class TinyYolo(nn.Module):
    def __init__(self, num_classes=4, width=16):
        super().__init__()
        self.backbone = nn.Sequential(
            conv_bn(3, width, 2),
            conv_bn(width, 2 * width, 2),
            conv_bn(2 * width, 2 * width, 2),
        )
        self.head = YoloHead(2 * width, num_classes)

    def forward(self, images):
        return self.head(self.backbone(images))
