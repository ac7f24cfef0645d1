import numpy as np
import torch
from torch.utils.data import Dataset

from .features import LogMel


class UtteranceDataset(Dataset):
    """Fixed-length utterances (one second) with one label each; synthetic tones stand in for the corpus."""

    def __init__(self, n_items: int, n_classes: int, sample_rate: int = 8000, n_mels: int = 40, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, n_classes, size=n_items)
        t = np.arange(sample_rate) / sample_rate
        self.waves = [
            (np.sin(2 * np.pi * (200 + 150 * y) * t) + 0.3 * rng.standard_normal(sample_rate)).astype(np.float32)
            for y in self.labels
        ]
        self.logmel = LogMel(sample_rate=sample_rate, n_mels=n_mels)

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i):
        feats = self.logmel(self.waves[i])
        feats = (feats - feats.mean(axis=0, keepdims=True)) / (feats.std(axis=0, keepdims=True) + 1e-5)
        return torch.from_numpy(feats.T.copy()), int(self.labels[i])
