import torch
import torch.nn as nn


class DoubleConv(nn.Sequential):
    def __init__(self, in_channels, out_channels):
        super().__init__(
            nn.Conv2d(in_channels, out_channels, 3, padding=1, bias=False), nn.BatchNorm2d(out_channels), nn.ReLU(True),
            nn.Conv2d(out_channels, out_channels, 3, padding=1, bias=False), nn.BatchNorm2d(out_channels), nn.ReLU(True),
        )


class UNet(nn.Module):
    def __init__(self, n_channels=3, n_classes=2, base=8):
        super().__init__()
        self.n_channels = n_channels
        self.n_classes = n_classes
        self.inc = DoubleConv(n_channels, base)
        self.down = nn.Sequential(nn.MaxPool2d(2), DoubleConv(base, base * 2))
        self.up = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.conv = DoubleConv(base * 2, base)
        self.outc = nn.Conv2d(base, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(x1)
        x = self.conv(torch.cat([x1, self.up(x2)], dim=1))
        return self.outc(x)
