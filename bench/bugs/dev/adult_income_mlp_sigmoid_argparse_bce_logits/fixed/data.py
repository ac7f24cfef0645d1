import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

NUMERIC = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hours_per_week"]
N_CATEGORICAL = 8


def make_adult_like(n_rows=400, seed=0):
    rng = np.random.default_rng(seed)
    numeric = rng.normal(size=(n_rows, len(NUMERIC)))
    categories = rng.integers(0, N_CATEGORICAL, size=n_rows)
    onehot = np.eye(N_CATEGORICAL)[categories]
    score = numeric[:, 0] + 0.5 * numeric[:, 2] - 0.3 * categories
    labels = (score + rng.normal(scale=0.5, size=n_rows) > 0).astype(np.float32)
    features = np.concatenate([numeric, onehot], axis=1).astype(np.float32)
    return features, labels


def get_loaders(batch_size, seed=0, val_fraction=0.2):
    x, y = make_adult_like(seed=seed)
    mean, std = x.mean(0), x.std(0) + 1e-6
    x = (x - mean) / std
    n_val = int(len(x) * val_fraction)
    x_t, y_t = torch.from_numpy(x), torch.from_numpy(y).unsqueeze(1)
    train = TensorDataset(x_t[n_val:], y_t[n_val:])
    val = TensorDataset(x_t[:n_val], y_t[:n_val])
    pos_weight = (y_t[n_val:] == 0).sum() / (y_t[n_val:] == 1).sum().clamp(min=1)
    return DataLoader(train, batch_size=batch_size, shuffle=True), DataLoader(val, batch_size=256), pos_weight
