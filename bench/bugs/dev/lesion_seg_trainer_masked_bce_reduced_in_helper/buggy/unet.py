import torch
import torch.nn as nn


def double_conv(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
        nn.Conv2d(c_out, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
    )


class SmallUNet(nn.Module):
    def __init__(self, in_ch=1, base=8):
        super().__init__()
        self.down1 = double_conv(in_ch, base)
        self.down2 = double_conv(base, base * 2)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.fuse = double_conv(base * 2, base)
        self.out = nn.Conv2d(base, 1, 1)

    def forward(self, x):
        d1 = self.down1(x)
        d2 = self.down2(self.pool(d1))
        return self.out(self.fuse(torch.cat([self.up(d2), d1], dim=1)))
