import numpy as np
import torch
from torch.utils.data import Dataset

LEADS = ("I", "II", "V1")


def synthetic_recording(n_samples: int, fs: int = 250, seed: int = 0) -> np.ndarray:
    """A (samples, leads) recording, the layout wfdb.rdsamp returns."""
    rng = np.random.default_rng(seed)
    t = np.arange(n_samples) / fs
    beats = np.sin(2 * np.pi * 1.2 * t)[:, None] * np.array([1.0, 1.4, -0.6])
    return (beats + 0.05 * rng.standard_normal((n_samples, len(LEADS)))).astype(np.float32)


class BeatWindows(Dataset):
    def __init__(self, recording: np.ndarray, window: int = 128, stride: int = 64) -> None:
        mean, std = recording.mean(axis=0), recording.std(axis=0) + 1e-6
        self.signal = (recording - mean) / std
        self.window = window
        self.starts = list(range(0, len(recording) - window, stride))
        self.labels = np.random.default_rng(1).integers(0, 4, len(self.starts))

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, idx: int) -> tuple[torch.Tensor, int]:
        start = self.starts[idx]
        segment = self.signal[start:start + self.window]
        return torch.from_numpy(segment), int(self.labels[idx])
