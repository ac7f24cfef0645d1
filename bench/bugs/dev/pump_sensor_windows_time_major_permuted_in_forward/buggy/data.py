import numpy as np
import torch
from torch.utils.data import Dataset

SENSORS = ["pressure_in", "pressure_out", "flow", "vibration_x", "vibration_y", "motor_temp", "current"]


def simulate(n_steps: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    t = np.arange(n_steps)
    readings = np.stack([np.sin(2 * np.pi * t / (30 + 7 * k)) for k in range(len(SENSORS))], axis=1)
    readings += 0.1 * rng.standard_normal(readings.shape)
    faults = np.zeros(n_steps, dtype=np.int64)
    for start in rng.integers(0, n_steps - 40, size=6):
        faults[start : start + 25] = 1
        readings[start : start + 25, 3:5] += 1.5
    return readings.astype(np.float32), faults


class SensorWindows(Dataset):
    """One window per step: the last `window` readings, shape (window, n_sensors), row t is time step t."""

    def __init__(self, readings: np.ndarray, faults: np.ndarray, window: int = 32, stride: int = 4):
        mu, sigma = readings.mean(0), readings.std(0) + 1e-6
        self.readings = (readings - mu) / sigma
        self.faults = faults
        self.window = window
        self.starts = list(range(0, len(readings) - window, stride))

    def __len__(self):
        return len(self.starts)

    def __getitem__(self, i):
        s = self.starts[i]
        x = torch.from_numpy(self.readings[s : s + self.window])
        y = torch.tensor(self.faults[s + self.window - 1])
        return x, y
