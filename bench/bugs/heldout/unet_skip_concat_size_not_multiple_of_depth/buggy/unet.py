import torch
import torch.nn as nn


class DoubleConv(nn.Sequential):
    def __init__(self, c_in, c_out):
        super().__init__(
            nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
            nn.Conv2d(c_out, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
        )


class Up(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.up = nn.ConvTranspose2d(c_in, c_out, 2, stride=2)
        self.conv = DoubleConv(2 * c_out, c_out)

    def forward(self, x, skip):
        x = self.up(x)
        return self.conv(torch.cat([skip, x], dim=1))


class UNet(nn.Module):
    def __init__(self, in_ch=1, n_classes=2, widths=(8, 16, 32, 64, 128)):
        super().__init__()
        self.inc = DoubleConv(in_ch, widths[0])
        self.downs = nn.ModuleList(DoubleConv(a, b) for a, b in zip(widths[:-1], widths[1:]))
        self.pool = nn.MaxPool2d(2)
        self.ups = nn.ModuleList(Up(b, a) for a, b in zip(reversed(widths[:-1]), reversed(widths[1:])))
        self.head = nn.Conv2d(widths[0], n_classes, 1)

    def forward(self, x):
        skips = [self.inc(x)]
        for down in self.downs:
            skips.append(down(self.pool(skips[-1])))
        x = skips.pop()
        for up in self.ups:
            x = up(x, skips.pop())
        return self.head(x)
