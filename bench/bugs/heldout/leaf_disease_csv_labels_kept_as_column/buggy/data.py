import torch
from torch.utils.data import Dataset


class LeafFeatures(Dataset):
    """Rows of a (synthetic) feature table; the label is the last column, as in the CSV export."""

    def __init__(self, n_rows=40, n_features=10, n_classes=7, seed=0):
        g = torch.Generator().manual_seed(seed)
        feats = torch.randn(n_rows, n_features, generator=g)
        labels = torch.randint(0, n_classes, (n_rows, 1), generator=g).float()
        self.table = torch.cat([feats, labels], dim=1)
        self.n_classes = n_classes

    def __len__(self):
        return self.table.size(0)

    def __getitem__(self, idx):
        row = self.table[idx]
        x = row[:-1]
        y = row[-1:].long()
        return x, y
