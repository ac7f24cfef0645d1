import torch
from torch import nn


class DoubleConv(nn.Sequential):
    def __init__(self, c_in: int, c_out: int) -> None:
        super().__init__(
            nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
            nn.Conv2d(c_out, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
        )


class UNet(nn.Module):
    def __init__(self, n_channels: int, n_classes: int, base: int = 16) -> None:
        super().__init__()
        self.inc = DoubleConv(n_channels, base)
        self.down = nn.Sequential(nn.MaxPool2d(2), DoubleConv(base, base * 2))
        self.up = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.dec = DoubleConv(base * 2, base)
        self.outc = nn.Conv2d(base, n_classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x1 = self.inc(x)
        x2 = self.down(x1)
        return self.outc(self.dec(torch.cat([x1, self.up(x2)], dim=1)))
