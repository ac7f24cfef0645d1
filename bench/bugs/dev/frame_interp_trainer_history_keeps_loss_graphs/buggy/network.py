import torch
import torch.nn as nn


class ConvBlock(nn.Sequential):
    def __init__(self, c_in, c_out):
        super().__init__(nn.Conv2d(c_in, c_out, 3, padding=1), nn.LeakyReLU(0.1), nn.Conv2d(c_out, c_out, 3, padding=1))


class InterpNet(nn.Module):
    """Predicts the middle frame from the two frames around it."""

    def __init__(self, width=16):
        super().__init__()
        self.enc = ConvBlock(6, width)
        self.dec = ConvBlock(width, 3)

    def forward(self, frame0, frame1):
        residual = self.dec(self.enc(torch.cat([frame0, frame1], dim=1)))
        return 0.5 * (frame0 + frame1) + residual
