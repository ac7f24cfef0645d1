import torch
from torch.utils.data import Dataset


class ImuWindows(Dataset):
    """Sliding windows over a 6-axis IMU recording: each item is (window, activity)."""

    def __init__(self, n_windows: int = 32, window: int = 100, n_axes: int = 6, num_classes: int = 4):
        g = torch.Generator().manual_seed(0)
        self.signal = torch.randn(n_windows * window, n_axes, generator=g)
        self.labels = torch.randint(0, num_classes, (n_windows,), generator=g)
        self.window = window

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, idx: int):
        start = idx * self.window
        return self.signal[start : start + self.window].t(), self.labels[idx]
