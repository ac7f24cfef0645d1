import numpy as np
import torch
from torch.utils.data import Dataset


def synthetic_scada(n: int, n_features: int, seed: int = 0):
    """SCADA-like readings: power follows a cubic of wind speed, capped at rated power."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, n_features)).astype(np.float32)
    speed = np.clip(x[:, 0] * 3.0 + 8.0, 0.0, None)
    power = np.minimum(0.002 * speed ** 3, 2.0) + rng.normal(scale=0.05, size=n)
    return x, power.astype(np.float32)


class TurbineDataset(Dataset):
    def __init__(self, features: np.ndarray, power: np.ndarray):
        self.mean = features.mean(axis=0)
        self.std = features.std(axis=0) + 1e-6
        self.features = (features - self.mean) / self.std
        self.power = power

    def __len__(self):
        return len(self.power)

    def __getitem__(self, idx):
        return torch.from_numpy(self.features[idx]), torch.tensor(self.power[idx])
