import torch
import torch.nn as nn

from .blocks import Decoder, Deconv, ResEncoder


class ERNet(nn.Module):
    """A small residual encoder / decoder for thin-structure (vessel) segmentation."""

    def __init__(self, channels=1, classes=1, base=8):
        super().__init__()
        self.pool = nn.MaxPool2d(2)
        self.enc1 = ResEncoder(channels, base)
        self.enc2 = ResEncoder(base, base * 2)
        self.enc3 = ResEncoder(base * 2, base * 4)
        self.deconv2 = Deconv(base * 4, base * 2)
        self.dec2 = Decoder(base * 4, base * 2)
        self.deconv1 = Deconv(base * 2, base)
        self.dec1 = Decoder(base * 2, base)
        self.final = nn.Conv2d(base, classes, kernel_size=1)
        self.initialize()

    def initialize(self):
        for m in self.modules():
            if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
                nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
                if m.bias is not None:
                    nn.init.zeros_(m.bias)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        e3 = self.enc3(self.pool(e2))
        d2 = self.dec2(torch.cat([self.deconv2(e3), e2], dim=1))
        d1 = self.dec1(torch.cat([self.deconv1(d2), e1], dim=1))
        return torch.sigmoid(self.final(d1))
