import torch
import torch.nn as nn


class DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyUNet(nn.Module):
    def __init__(self, in_ch: int = 3, base: int = 8):
        super().__init__()
        self.enc = DoubleConv(in_ch, base)
        self.pool = nn.MaxPool2d(2)
        self.mid = DoubleConv(base, base * 2)
        self.up = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.dec = DoubleConv(base * 2, base)
        self.out = nn.Conv2d(base, 1, 1)

    def forward(self, x):
        e = self.enc(x)
        m = self.mid(self.pool(e))
        return self.out(self.dec(torch.cat([self.up(m), e], dim=1)))
