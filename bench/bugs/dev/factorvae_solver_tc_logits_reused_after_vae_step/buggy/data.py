import torch
from torch.utils.data import DataLoader, Dataset


class PairedShapes(Dataset):
    """Synthetic stand-in for dSprites: each item is two independent samples, as FactorVAE draws them."""

    def __init__(self, n=256, x_dim=64, seed=0):
        g = torch.Generator().manual_seed(seed)
        factors = torch.rand(n, 4, generator=g)
        basis = torch.randn(4, x_dim, generator=g)
        self.images = torch.sigmoid(factors @ basis)
        self.order = torch.randperm(n, generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return self.images[index], self.images[self.order[index]]


def return_data(cfg):
    dset = PairedShapes(x_dim=cfg.x_dim, seed=cfg.seed)
    return DataLoader(dset, batch_size=cfg.batch_size, shuffle=True, drop_last=True)
