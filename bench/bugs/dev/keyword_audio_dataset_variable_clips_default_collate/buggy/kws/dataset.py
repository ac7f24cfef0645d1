import numpy as np
import torch
from torch.utils.data import Dataset

KEYWORDS = ["yes", "no", "up", "down", "stop", "go"]


class SyntheticCommands(Dataset):
    """Stand-in for a speech-commands folder: one utterance per item, trimmed of leading/trailing silence,
    so clip lengths differ from item to item."""

    def __init__(self, n_items: int, sample_rate: int = 8000, seed: int = 0, transform=None):
        rng = np.random.default_rng(seed)
        self.sample_rate = sample_rate
        self.transform = transform
        self.items = []
        for _ in range(n_items):
            label = int(rng.integers(len(KEYWORDS)))
            duration = rng.uniform(0.4, 1.0)
            t = np.arange(int(duration * sample_rate)) / sample_rate
            wave = np.sin(2 * np.pi * (200 + 90 * label) * t) * np.hanning(len(t))
            wave = wave + 0.05 * rng.normal(size=len(t))
            self.items.append((wave.astype(np.float32), label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        wave, label = self.items[idx]
        wave = torch.from_numpy(wave).unsqueeze(0)
        if self.transform is not None:
            wave = self.transform(wave)
        return wave, label
