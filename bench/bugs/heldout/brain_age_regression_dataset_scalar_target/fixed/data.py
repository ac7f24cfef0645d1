import torch
from torch.utils.data import Dataset


class VolumeRegressionDataset(Dataset):
    """Small 3D patches with one continuous label each (e.g. age), read from a CSV in the real pipeline."""

    def __init__(self, n_subjects=16, patch=12, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.volumes = torch.rand(n_subjects, 1, patch, patch, patch, generator=g)
        self.values = self.volumes.mean(dim=(1, 2, 3, 4)) * 80 + torch.rand(n_subjects, generator=g) * 5

    def __len__(self):
        return len(self.volumes)

    def __getitem__(self, idx):
        subject = {"image": self.volumes[idx], "value_0": self.values[idx].unsqueeze(0)}
        return subject
