import torch
from torch import nn


def conv_block(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
        nn.Conv2d(c_out, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
    )


class UNet3Plus(nn.Module):
    def __init__(self, n_channels: int = 3, n_classes: int = 1, base: int = 16) -> None:
        super().__init__()
        self.enc1 = conv_block(n_channels, base)
        self.enc2 = conv_block(base, base * 2)
        self.enc3 = conv_block(base * 2, base * 4)
        self.pool = nn.MaxPool2d(2)
        # full-scale skip: every encoder level is brought to the decoder's resolution
        self.cat1 = nn.Conv2d(base, base, 3, padding=1)
        self.cat2 = nn.Conv2d(base * 2, base, 3, padding=1)
        self.cat3 = nn.Conv2d(base * 4, base, 3, padding=1)
        self.fuse = conv_block(base * 3, base * 3)
        self.out = nn.Conv2d(base * 3, n_classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        e3 = self.enc3(self.pool(e2))
        d2 = nn.functional.interpolate(self.cat2(e2), scale_factor=2, mode="bilinear", align_corners=False)
        d3 = nn.functional.interpolate(self.cat3(e3), scale_factor=4, mode="bilinear", align_corners=False)
        return self.out(self.fuse(torch.cat([self.cat1(e1), d2, d3], dim=1)))
