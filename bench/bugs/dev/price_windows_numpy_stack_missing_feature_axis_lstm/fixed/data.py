import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


def synthetic_close_prices(n_days: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    log_returns = rng.normal(0.0005, 0.02, size=n_days)
    return (100 * np.exp(np.cumsum(log_returns))).astype(np.float32)


def sliding_windows(series: np.ndarray, lookback: int):
    xs, ys = [], []
    for s in range(len(series) - lookback):
        xs.append(series[s:s + lookback])
        ys.append(series[s + lookback])
    return np.stack(xs)[..., None], np.array(ys, dtype=np.float32)


def make_loaders(series: np.ndarray, lookback: int, batch_size: int, split: float = 0.8):
    x, y = sliding_windows(series, lookback)
    cut = int(split * len(x))
    train = TensorDataset(torch.from_numpy(x[:cut]), torch.from_numpy(y[:cut]).unsqueeze(-1))
    valid = TensorDataset(torch.from_numpy(x[cut:]), torch.from_numpy(y[cut:]).unsqueeze(-1))
    return (DataLoader(train, batch_size=batch_size, shuffle=True),
            DataLoader(valid, batch_size=batch_size))
