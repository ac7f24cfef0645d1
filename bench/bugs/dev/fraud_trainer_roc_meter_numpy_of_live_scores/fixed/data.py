import torch
from torch.utils.data import DataLoader, TensorDataset


def transactions(n, n_features, generator):
    x = torch.randn(n, n_features, generator=generator)
    w = torch.randn(n_features, generator=generator)
    y = ((x @ w + 0.5 * torch.randn(n, generator=generator)) > 1.0).float()
    return TensorDataset(x, y)


def train_loader(cfg, generator):
    ds = transactions(cfg["n_train"], cfg["n_features"], generator)
    return DataLoader(ds, batch_size=cfg["batch_size"], shuffle=True, generator=generator, drop_last=True)
