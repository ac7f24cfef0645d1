import torch.nn as nn


def conv_bn_act(c_in, c_out, stride=1):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.SiLU(),
    )


class Backbone(nn.Module):
    """A toy EfficientNet-like encoder: returns the P3 feature map."""

    def __init__(self, widths):
        super().__init__()
        stages, c_in = [], 3
        for c_out in widths:
            stages.append(conv_bn_act(c_in, c_out, stride=2))
            c_in = c_out
        self.stages = nn.Sequential(*stages)

    def forward(self, x):
        return self.stages(x)


class SegHead(nn.Module):
    def __init__(self, in_channels, num_classes, fpn_channels=32):
        super().__init__()
        self.lateral = conv_bn_act(in_channels, fpn_channels)
        self.classify = nn.Conv2d(fpn_channels, num_classes, 1)
        self.up = nn.Upsample(scale_factor=8, mode="bilinear", align_corners=False)

    def forward(self, feats):
        return self.up(self.classify(self.lateral(feats)))
