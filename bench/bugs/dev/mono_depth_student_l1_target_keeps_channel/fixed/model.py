import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class DepthNet(nn.Module):
    """A small encoder-decoder that predicts one positive depth value per pixel."""

    def __init__(self, width: int = 16):
        super().__init__()
        self.enc1 = conv_block(3, width)
        self.enc2 = conv_block(width, width * 2, stride=2)
        self.dec = conv_block(width * 2 + width, width)
        self.head = nn.Conv2d(width, 1, 1)

    def forward(self, x):
        f1 = self.enc1(x)
        f2 = self.enc2(f1)
        up = F.interpolate(f2, size=f1.shape[-2:], mode="bilinear", align_corners=False)
        out = self.head(self.dec(torch.cat([up, f1], dim=1)))
        return F.softplus(out).squeeze(1)

