import torch
import torch.nn as nn


def conv_block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class BiONet(nn.Module):
    def __init__(self, num_classes=2, filters=8, iterations=2):
        super().__init__()
        self.iterations = iterations
        self.enc = conv_block(1, filters)
        self.down = nn.MaxPool2d(2)
        self.mid = conv_block(filters, filters * 2)
        self.up = nn.ConvTranspose2d(filters * 2, filters, 2, stride=2)
        self.dec = conv_block(filters * 2, filters)
        self.back = conv_block(filters, filters)
        self.head = nn.Conv2d(filters, num_classes, 1)

    def forward(self, x):
        enc = self.enc(x)
        for _ in range(self.iterations):
            dec = self.dec(torch.cat([enc, self.up(self.mid(self.down(enc)))], dim=1))
            enc = enc + self.back(dec)
        return self.head(dec)
