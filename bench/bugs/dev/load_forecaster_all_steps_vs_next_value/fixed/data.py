import math

import torch
from torch.utils.data import Dataset


def synthetic_load(n_points=600, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n_points, dtype=torch.float32)
    daily = torch.sin(2 * math.pi * t / 24)
    weekly = 0.5 * torch.sin(2 * math.pi * t / (24 * 7))
    return daily + weekly + 0.1 * torch.randn(n_points, generator=g)


class WindowDataset(Dataset):
    """input: `window` past values; label: the value right after the window."""

    def __init__(self, series, window=24):
        self.series = series
        self.window = window

    def __len__(self):
        return len(self.series) - self.window

    def __getitem__(self, i):
        x = self.series[i:i + self.window].unsqueeze(-1)
        y = self.series[i + self.window:i + self.window + 1]
        return x, y
