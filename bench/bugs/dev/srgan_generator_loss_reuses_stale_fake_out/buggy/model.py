import math

import torch
import torch.nn as nn


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.prelu = nn.PReLU()
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        return x + self.conv2(self.prelu(self.conv1(x)))


class Generator(nn.Module):
    def __init__(self, scale_factor=2, channels=8):
        super().__init__()
        upsample_blocks = int(math.log(scale_factor, 2))
        self.head = nn.Sequential(nn.Conv2d(3, channels, 5, padding=2), nn.PReLU())
        self.body = nn.Sequential(ResidualBlock(channels), ResidualBlock(channels))
        ups = []
        for _ in range(upsample_blocks):
            ups += [nn.Conv2d(channels, channels * 4, 3, padding=1), nn.PixelShuffle(2), nn.PReLU()]
        self.tail = nn.Sequential(*ups, nn.Conv2d(channels, 3, 5, padding=2))

    def forward(self, x):
        h = self.head(x)
        return (torch.tanh(self.tail(h + self.body(h))) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, channels, 3, padding=1),
            nn.LeakyReLU(0.2),
            nn.Conv2d(channels, channels * 2, 3, stride=2, padding=1),
            nn.BatchNorm2d(channels * 2),
            nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1),
            nn.Conv2d(channels * 2, 1, 1),
        )

    def forward(self, x):
        return torch.sigmoid(self.net(x).flatten())
