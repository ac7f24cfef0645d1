import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(c_in, c_out, stride=1):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class DepthNet(nn.Module):
    """RGB in, one depth map out at the input's resolution."""

    def __init__(self, base=16):
        super().__init__()
        self.enc1 = conv_bn_relu(3, base)
        self.enc2 = conv_bn_relu(base, base * 2, stride=2)
        self.dec = conv_bn_relu(base * 2, base)
        self.out = nn.Conv2d(base, 1, 1)

    def forward(self, rgb):
        x1 = self.enc1(rgb)
        x2 = self.enc2(x1)
        up = F.interpolate(self.dec(x2), size=x1.shape[-2:], mode="bilinear", align_corners=False)
        return torch.sigmoid(self.out(up + x1))
