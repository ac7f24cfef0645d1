import torch
from torch.utils.data import Dataset


class HousingTable(Dataset):
    """Standardised features and a scalar log-price per row."""

    def __init__(self, n_rows: int = 64, n_features: int = 8):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n_rows, n_features, generator=g)
        w = torch.randn(n_features, generator=g)
        self.y = self.x @ w + 0.1 * torch.randn(n_rows, generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]
