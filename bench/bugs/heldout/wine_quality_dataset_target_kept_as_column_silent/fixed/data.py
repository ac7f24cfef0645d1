import numpy as np
import torch
from torch.utils.data import Dataset

FEATURES = ["fixed_acidity", "volatile_acidity", "citric_acid", "residual_sugar", "chlorides", "free_so2",
            "total_so2", "density", "ph", "sulphates", "alcohol"]


def synthetic_wines(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, len(FEATURES))).astype(np.float32)
    quality = 5.6 + 0.6 * x[:, 10] - 0.4 * x[:, 1] + 0.2 * x[:, 9] + rng.normal(scale=0.3, size=n)
    return x, np.clip(np.round(quality), 3, 9).astype(np.float32)


class WineDataset(Dataset):
    def __init__(self, x: np.ndarray, quality: np.ndarray, stats=None):
        self.mean, self.std = stats if stats is not None else (x.mean(0), x.std(0) + 1e-6)
        self.x = (x - self.mean) / self.std
        self.quality = quality

    def __len__(self):
        return len(self.quality)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), torch.tensor([self.quality[i]])
