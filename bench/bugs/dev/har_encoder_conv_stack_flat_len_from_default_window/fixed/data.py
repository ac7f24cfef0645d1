import numpy as np
import torch
from torch.utils.data import Dataset

ACTIVITIES = ["walking", "upstairs", "downstairs", "sitting", "standing", "lying"]


class InertialWindows(Dataset):
    """Body acc, gyro and total acc (x, y, z each): 9 channels, windows of `window` samples, channels first."""

    def __init__(self, n_windows: int, window: int, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.y = rng.integers(0, len(ACTIVITIES), n_windows)
        t = np.arange(window) / 50.0
        freq = 0.5 + self.y[:, None, None] * 0.4
        base = np.sin(2 * np.pi * freq * t[None, None, :] + rng.uniform(0, np.pi, (n_windows, 9, 1)))
        self.x = (base + 0.2 * rng.standard_normal((n_windows, 9, window))).astype(np.float32)

    @property
    def n_channels(self) -> int:
        return self.x.shape[1]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), torch.tensor(self.y[i])
