import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class CellDataset(Dataset):
    def __init__(self, expression, covariates, labels=None):
        self.expression = expression.astype(np.float32)
        self.covariates = covariates.astype(np.float32)
        self.labels = labels

    def __len__(self):
        return len(self.expression)

    def __getitem__(self, i):
        item = {"x": self.expression[i], "cov": self.covariates[i]}
        if self.labels is not None:
            item["y"] = int(self.labels[i])
        return item


def collate_cells(items):
    batch = {
        "x": torch.from_numpy(np.stack([it["x"] for it in items])),
        "cov": torch.from_numpy(np.stack([it["cov"] for it in items])),
    }
    if "y" in items[0]:
        batch["y"] = torch.tensor([it["y"] for it in items])
    return batch


def make_loader(dataset, batch_size, shuffle=False, seed=0):
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, collate_fn=collate_cells,
                      generator=torch.Generator().manual_seed(seed))
