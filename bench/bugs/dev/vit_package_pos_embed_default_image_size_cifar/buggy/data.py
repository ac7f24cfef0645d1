import numpy as np
import torch
from torch.utils.data import Dataset

MEAN = np.array([0.4914, 0.4822, 0.4465], dtype=np.float32)
STD = np.array([0.2470, 0.2435, 0.2616], dtype=np.float32)


class SyntheticCifar(Dataset):
    """CIFAR-shaped stand-in: uint8 HWC images, 10 classes."""

    def __init__(self, n: int = 96, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.images = rng.integers(0, 256, size=(n, 32, 32, 3), dtype=np.uint8)
        self.labels = rng.integers(0, 10, size=n)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = (self.images[i].astype(np.float32) / 255.0 - MEAN) / STD
        return torch.from_numpy(img.transpose(2, 0, 1)), int(self.labels[i])
