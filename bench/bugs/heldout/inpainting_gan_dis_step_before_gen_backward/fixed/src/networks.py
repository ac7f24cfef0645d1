import torch
import torch.nn as nn


class InpaintGenerator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(4, ch, 3, padding=1), nn.ReLU(True),
                                     nn.Conv2d(ch, ch * 2, 4, stride=2, padding=1), nn.ReLU(True))
        self.decoder = nn.Sequential(nn.ConvTranspose2d(ch * 2, ch, 4, stride=2, padding=1), nn.ReLU(True),
                                     nn.Conv2d(ch, 3, 3, padding=1))

    def forward(self, x):
        return (torch.tanh(self.decoder(self.encoder(x))) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self, in_channels=3, ch=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(in_channels, ch, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True),
            nn.Conv2d(ch, ch * 2, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True),
            nn.Conv2d(ch * 2, 1, 3, padding=1),
        )

    def forward(self, x):
        out = self.conv(x)
        return torch.sigmoid(out), out
