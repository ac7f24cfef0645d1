import torch
from torch.utils.data import Dataset

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"


class StabilityDataset(Dataset):
    """Protein sequences (as residue indices) with a measured stability score each."""

    def __init__(self, n=40, length=30, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.seqs = torch.randint(0, len(AMINO_ACIDS), (n, length), generator=g)
        self.scores = torch.randn(n, generator=g)

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, idx):
        return self.seqs[idx], self.scores[idx]
