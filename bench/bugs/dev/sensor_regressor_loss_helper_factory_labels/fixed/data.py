"""Synthetic sensor readings: a window of features per sample, one scalar target (the next reading)."""
import torch
from torch.utils.data import DataLoader, TensorDataset, random_split


def make_regression_dataset(n_samples, n_features, noise=0.05, seed=0):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(n_samples, n_features, generator=g)
    w = torch.linspace(-1.0, 1.0, n_features)
    y = X @ w + noise * torch.randn(n_samples, generator=g)
    # standardise the target so the loss is comparable across runs
    y = (y - y.mean()) / y.std()
    return TensorDataset(X, y)


def make_loaders(cfg):
    ds = make_regression_dataset(cfg.n_samples, cfg.n_features, seed=cfg.seed)
    n_val = len(ds) // 5
    train_ds, val_ds = random_split(ds, [len(ds) - n_val, n_val], generator=torch.Generator().manual_seed(cfg.seed))
    train_loader = DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=cfg.batch_size)
    return train_loader, val_loader
