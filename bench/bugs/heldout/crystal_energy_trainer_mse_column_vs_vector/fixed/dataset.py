import torch
from torch.utils.data import Dataset


class StructureEnergies(Dataset):
    def __init__(self, n, n_features, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.descriptors = torch.randn(n, n_features, generator=g)
        w = torch.randn(n_features, generator=g)
        self.energies = self.descriptors @ w + 0.05 * torch.randn(n, generator=g)

    def __len__(self):
        return len(self.energies)

    def __getitem__(self, i):
        return {"x": self.descriptors[i], "energy": self.energies[i]}
