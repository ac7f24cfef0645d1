import torch
from torch.utils.data import Dataset


class SSLDataset(Dataset):
    """Toy 2-D features; unlabeled items come back as (weak view, strong view)."""

    def __init__(self, n, labeled, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, 8, generator=g)
        self.y = (self.x[:, 0] > 0).long() + (self.x[:, 1] > 0).long()
        self.labeled = labeled

    def __len__(self):
        return len(self.x)

    def weak(self, x):
        return x + 0.05 * torch.randn_like(x)

    def strong(self, x):
        keep = (torch.rand_like(x) > 0.2).float()
        return x * keep + 0.3 * torch.randn_like(x)

    def __getitem__(self, idx):
        x = self.x[idx]
        if self.labeled:
            return self.weak(x), self.y[idx]
        return self.weak(x), self.strong(x)
