"""Aerial cactus tiles: 32x32 RGB crops, label 1 when a columnar cactus is in the tile."""
import numpy as np
import torch
from torch.utils.data import Dataset

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)


def synthetic_tiles(n: int, tile: int, seed: int):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, size=(n, tile, tile, 3), dtype=np.uint8)
    labels = rng.integers(0, 2, size=n)
    # cactus tiles are a little greener
    images[labels == 1, :, :, 1] = np.clip(images[labels == 1, :, :, 1].astype(int) + 40, 0, 255)
    return images, labels


class CactusTiles(Dataset):
    def __init__(self, n: int, tile: int = 32, seed: int = 0, augment: bool = False):
        self.images, self.labels = synthetic_tiles(n, tile, seed)
        self.augment = augment
        self.rng = np.random.default_rng(seed + 100)

    def __len__(self):
        return len(self.labels)

    def _load(self, idx: int) -> np.ndarray:
        img = self.images[idx].astype(np.float32) / 255.0
        if self.augment and self.rng.random() < 0.5:
            img = img[:, ::-1, :]
        return (img - MEAN) / STD

    def __getitem__(self, idx):
        img = np.ascontiguousarray(self._load(idx))
        return torch.from_numpy(img).permute(2, 0, 1), torch.tensor(self.labels[idx], dtype=torch.long)
