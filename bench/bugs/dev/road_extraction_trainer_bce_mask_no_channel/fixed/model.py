import torch
import torch.nn as nn


def double_conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class TinyLinkNet(nn.Module):
    def __init__(self, width: int = 16) -> None:
        super().__init__()
        self.enc1 = double_conv(3, width)
        self.enc2 = double_conv(width, 2 * width)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.ConvTranspose2d(2 * width, width, 2, stride=2)
        self.dec = double_conv(2 * width, width)
        self.logit = nn.Conv2d(width, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        d = self.dec(torch.cat([self.up(e2), e1], dim=1))
        return self.logit(d)
