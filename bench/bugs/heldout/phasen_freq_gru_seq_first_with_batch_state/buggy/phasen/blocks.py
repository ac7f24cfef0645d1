import torch
import torch.nn as nn


class FTB(nn.Module):
    """Frequency transformation block: a learned mixing along the frequency axis."""

    def __init__(self, channels, n_freqs):
        super().__init__()
        self.freq_fc = nn.Linear(n_freqs, n_freqs, bias=False)
        self.conv = nn.Sequential(nn.Conv2d(2 * channels, channels, 1), nn.BatchNorm2d(channels), nn.ReLU())

    def forward(self, x):
        # x: (B, C, T, F)
        mixed = self.freq_fc(x)
        return self.conv(torch.cat([x, mixed], dim=1))
