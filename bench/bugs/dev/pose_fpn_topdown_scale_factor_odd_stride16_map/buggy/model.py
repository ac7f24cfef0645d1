import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(c_in, c_out, stride=1):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class Backbone(nn.Module):
    """Strides 8, 16 and 32 (C3, C4, C5)."""

    def __init__(self, width=8):
        super().__init__()
        self.stem = nn.Sequential(conv_bn_relu(3, width, 2), conv_bn_relu(width, width, 2))
        self.layer3 = conv_bn_relu(width, 2 * width, 2)
        self.layer4 = conv_bn_relu(2 * width, 4 * width, 2)
        self.layer5 = conv_bn_relu(4 * width, 8 * width, 2)
        self.out_channels = (2 * width, 4 * width, 8 * width)

    def forward(self, x):
        c3 = self.layer3(self.stem(x))
        c4 = self.layer4(c3)
        c5 = self.layer5(c4)
        return c3, c4, c5


class FPN(nn.Module):
    def __init__(self, in_channels, out_channels=32):
        super().__init__()
        self.lateral = nn.ModuleList(nn.Conv2d(c, out_channels, 1) for c in in_channels)
        self.smooth = nn.Conv2d(out_channels, out_channels, 3, padding=1)

    def forward(self, c3, c4, c5):
        p5 = self.lateral[2](c5)
        p4 = self.lateral[1](c4) + F.interpolate(p5, scale_factor=2, mode="nearest")
        p3 = self.lateral[0](c3) + F.interpolate(p4, scale_factor=2, mode="nearest")
        return self.smooth(p3)


class PoseFPN(nn.Module):
    def __init__(self, num_joints=17, width=8, fpn_channels=32):
        super().__init__()
        self.backbone = Backbone(width)
        self.fpn = FPN(self.backbone.out_channels, fpn_channels)
        self.heatmap_head = nn.Sequential(conv_bn_relu(fpn_channels, fpn_channels), nn.Conv2d(fpn_channels, num_joints, 1))

    def forward(self, img):
        p3 = self.fpn(*self.backbone(img))
        return self.heatmap_head(p3)
