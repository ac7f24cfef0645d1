import numpy as np
import torch
from torch.utils.data import Dataset

BANDS = ["delta", "theta", "alpha", "beta", "gamma"]


class SeedDEDataset(Dataset):
    """Differential-entropy features per EEG channel and band, one row per 1 s window; labels -1/0/1 -> 0/1/2."""

    def __init__(self, n_windows: int = 120, n_channels: int = 62, seed: int = 0):
        rng = np.random.default_rng(seed)
        raw_labels = rng.integers(-1, 2, size=(n_windows, 1))
        self.features = rng.normal(size=(n_windows, n_channels, len(BANDS))).astype(np.float32)
        self.features[:, :, 3] += raw_labels * 0.5
        self.labels = (raw_labels + 1).astype(np.int64)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return torch.from_numpy(self.features[i]), torch.from_numpy(self.labels[i])
