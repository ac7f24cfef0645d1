import numpy as np
import torch
from torch.utils.data import Dataset

from config import DataConfig


class SyntheticPatches(Dataset):
    """H&E-coloured noise patches; 'tumour' patches get denser dark nuclei."""

    def __init__(self, cfg: DataConfig, n: int, seed: int = 0):
        self.cfg = cfg
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, 2, size=n)
        self.patches = []
        for y in self.labels:
            img = rng.uniform(0.5, 0.9, size=(cfg.patch_size, cfg.patch_size, 3)).astype(np.float32)
            nuclei = rng.random((cfg.patch_size, cfg.patch_size)) < (0.08 if y else 0.02)
            img[nuclei] *= 0.3
            self.patches.append(img)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = (self.patches[i] - np.array(self.cfg.mean, dtype=np.float32)) / np.array(self.cfg.std, dtype=np.float32)
        return torch.from_numpy(np.ascontiguousarray(img.transpose(2, 0, 1))), int(self.labels[i])
