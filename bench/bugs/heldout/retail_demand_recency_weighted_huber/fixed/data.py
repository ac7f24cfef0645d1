import numpy as np
import torch
from torch.utils.data import Dataset


class StoreWeekDataset(Dataset):
    """One row per (store, week): lagged sales and calendar features; the target is next week's units."""

    def __init__(self, n_rows: int = 200, n_lags: int = 8, seed: int = 0):
        rng = np.random.default_rng(seed)
        base = rng.gamma(2.0, 50.0, size=(n_rows, 1))
        season = np.sin(np.linspace(0, 6 * np.pi, n_lags + 1))[None, :]
        series = base * (1 + 0.2 * season) + rng.normal(scale=5.0, size=(n_rows, n_lags + 1))
        self.lags = torch.tensor(np.log1p(np.clip(series[:, :-1], 0, None)), dtype=torch.float32)
        self.target = torch.tensor(np.log1p(np.clip(series[:, -1:], 0, None)), dtype=torch.float32)
        self.week = torch.tensor(rng.integers(0, 104, size=n_rows), dtype=torch.float32)

    def __len__(self):
        return len(self.target)

    def __getitem__(self, i):
        return self.lags[i], self.target[i], self.week[i]
