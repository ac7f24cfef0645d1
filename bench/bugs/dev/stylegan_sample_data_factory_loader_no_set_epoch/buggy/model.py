import math

import torch
from torch import nn


class Generator(nn.Module):
    def __init__(self, size=16, latent=32, channel=32):
        super().__init__()
        self.size = size
        self.channel = channel
        self.input = nn.Linear(latent, channel * 4 * 4)
        blocks = []
        for _ in range(int(math.log2(size)) - 2):
            blocks += [nn.Upsample(scale_factor=2), nn.Conv2d(channel, channel, 3, padding=1), nn.LeakyReLU(0.2)]
        self.blocks = nn.Sequential(*blocks)
        self.to_rgb = nn.Conv2d(channel, 3, 1)

    def forward(self, noise):
        out = self.input(noise).view(-1, self.channel, 4, 4)
        return torch.tanh(self.to_rgb(self.blocks(out)))


class Discriminator(nn.Module):
    def __init__(self, size=16, channel=32):
        super().__init__()
        layers = [nn.Conv2d(3, channel, 1), nn.LeakyReLU(0.2)]
        for _ in range(int(math.log2(size)) - 2):
            layers += [nn.Conv2d(channel, channel, 3, stride=2, padding=1), nn.LeakyReLU(0.2)]
        self.convs = nn.Sequential(*layers)
        self.final = nn.Linear(channel * 4 * 4, 1)

    def forward(self, image):
        out = self.convs(image)
        return self.final(out.flatten(1))
