import numpy as np
import torch
from torch.utils.data import Dataset


def simulate_fleet(n_engines: int, n_sensors: int, seed: int = 0):
    """Run-to-failure sensor logs: each engine degrades along its own curve until it fails."""
    rng = np.random.default_rng(seed)
    fleet = []
    for _ in range(n_engines):
        life = int(rng.integers(60, 90))
        wear = np.linspace(0.0, 1.0, life) ** rng.uniform(1.2, 2.0)
        gains = rng.normal(1.0, 0.3, size=n_sensors)
        sensors = wear[:, None] * gains + 0.05 * rng.standard_normal((life, n_sensors))
        fleet.append(sensors.astype(np.float32))
    return fleet


class RULWindows(Dataset):
    """Sliding windows over each engine's log; the label is the remaining useful life after the window's
    last cycle, capped as is usual for these benchmarks."""

    def __init__(self, fleet, window: int = 20, max_rul: float = 60.0):
        self.items = []
        for sensors in fleet:
            life = len(sensors)
            for end in range(window, life + 1, 3):
                rul = min(life - end, max_rul) / max_rul
                self.items.append((sensors[end - window:end], np.array([rul], dtype=np.float32)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        window, rul = self.items[idx]
        return torch.from_numpy(window), torch.from_numpy(rul)
