import torch
import torch.nn as nn


def double_conv(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class FootprintUNet(nn.Module):
    def __init__(self, in_ch: int = 3, base: int = 16):
        super().__init__()
        self.enc1, self.enc2 = double_conv(in_ch, base), double_conv(base, 2 * base)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.ConvTranspose2d(2 * base, base, 2, stride=2)
        self.dec = double_conv(2 * base, base)
        self.head = nn.Conv2d(base, 1, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        return self.head(self.dec(torch.cat([self.up(e2), e1], dim=1)))
