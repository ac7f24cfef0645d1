import numpy as np
import torch
from torch.utils.data import Dataset

COLUMNS = ["temp", "humidity", "wind", "hour_sin", "load"]


def make_frame(n_rows: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = np.arange(n_rows)
    temp = 15 + 8 * np.sin(2 * np.pi * t / 24) + rng.normal(0, 1, n_rows)
    humidity = 60 + 10 * np.cos(2 * np.pi * t / 24) + rng.normal(0, 2, n_rows)
    wind = np.abs(rng.normal(3, 1, n_rows))
    hour_sin = np.sin(2 * np.pi * (t % 24) / 24)
    load = 100 + 2 * temp + rng.normal(0, 3, n_rows)
    return np.stack([temp, humidity, wind, hour_sin, load], axis=1).astype(np.float32)


class LoadWindows(Dataset):
    """Sliding windows over the hourly table: the past seq_len rows of every column, the next pred_len loads."""

    def __init__(self, frame: np.ndarray, seq_len: int, pred_len: int, target: str = "load"):
        self.mean, self.std = frame.mean(0), frame.std(0) + 1e-6
        self.data = (frame - self.mean) / self.std
        self.seq_len, self.pred_len = seq_len, pred_len
        self.target_col = COLUMNS.index(target)

    @property
    def n_features(self) -> int:
        return self.data.shape[1]

    def __len__(self):
        return len(self.data) - self.seq_len - self.pred_len + 1

    def __getitem__(self, i):
        x = self.data[i : i + self.seq_len]
        y = self.data[i + self.seq_len : i + self.seq_len + self.pred_len, [self.target_col]]
        return torch.from_numpy(x), torch.from_numpy(y)
