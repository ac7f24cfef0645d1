import torch
import torch.nn as nn


class DoubleConv(nn.Sequential):
    def __init__(self, c_in, c_out):
        super().__init__(
            nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
            nn.Conv2d(c_out, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
        )


class TinyUNet(nn.Module):
    def __init__(self, n_classes=3, width=8):
        super().__init__()
        self.inc = DoubleConv(3, width)
        self.down = nn.Sequential(nn.MaxPool2d(2), DoubleConv(width, 2 * width))
        self.up = nn.ConvTranspose2d(2 * width, width, 2, stride=2)
        self.dec = DoubleConv(2 * width, width)
        self.outc = nn.Conv2d(width, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(x1)
        return self.outc(self.dec(torch.cat([self.up(x2), x1], dim=1)))
