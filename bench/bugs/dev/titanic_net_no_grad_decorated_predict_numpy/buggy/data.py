import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


def load_passengers(n=160, n_features=7, seed=42):
    """Preprocessed Titanic-like features (class one-hot, sex, age, fare, ...) and a survival label."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features)).astype(np.float32)
    logits = 1.5 * X[:, 0] - 1.0 * X[:, 1] + 0.5 * X[:, 2]
    y = (rng.random(n) < 1 / (1 + np.exp(-logits))).astype(np.float32)
    split = int(0.75 * n)
    return (X[:split], y[:split]), (X[split:], y[split:])


def to_loader(X, y, batch_size, shuffle):
    ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y).unsqueeze(-1))
    return DataLoader(ds, batch_size=batch_size, shuffle=shuffle)
