import numpy as np
import torch
from torch.utils.data import Dataset

CHANNELS = 3          # accelerometer x, y, z
WINDOW = 64


def synthetic_recordings(n: int, seed: int = 0) -> np.ndarray:
    """(n, CHANNELS, WINDOW) accelerometer windows from a handful of activity-like oscillations."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 2 * np.pi, WINDOW)
    freqs = rng.choice([1.0, 2.0, 4.0, 6.0], size=(n, CHANNELS, 1))
    phase = rng.uniform(0, 2 * np.pi, size=(n, CHANNELS, 1))
    return (np.sin(freqs * t + phase) + 0.1 * rng.normal(size=(n, CHANNELS, WINDOW))).astype(np.float32)


def augment(x: torch.Tensor) -> torch.Tensor:
    scale = 1 + 0.1 * torch.randn(x.shape[0], 1)
    return x * scale + 0.05 * torch.randn_like(x)


class TwoViews(Dataset):
    def __init__(self, windows: np.ndarray):
        self.windows = torch.from_numpy(windows)

    def __len__(self):
        return len(self.windows)

    def __getitem__(self, i):
        w = self.windows[i]
        return augment(w), augment(w)
