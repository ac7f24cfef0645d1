import numpy as np
import torch
from torch.utils.data import Dataset

from features import Featurizer


class ToneEvents(Dataset):
    """Synthetic sound events: a class-dependent tone plus noise."""

    def __init__(self, n: int, sample_rate: int, seconds: float, num_classes: int, featurizer: Featurizer, seed=0):
        rng = np.random.default_rng(seed)
        t = np.arange(int(sample_rate * seconds)) / sample_rate
        self.labels = rng.integers(0, num_classes, size=n)
        self.waves = [
            (np.sin(2 * np.pi * (300 + 250 * y) * t) + 0.3 * rng.normal(size=t.shape)).astype(np.float32)
            for y in self.labels
        ]
        self.featurizer = featurizer

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        feats = self.featurizer(self.waves[i])
        feats = (feats - feats.mean(axis=1, keepdims=True)) / (feats.std(axis=1, keepdims=True) + 1e-5)
        return torch.from_numpy(feats), int(self.labels[i])
