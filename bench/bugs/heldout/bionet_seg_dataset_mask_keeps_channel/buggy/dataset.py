import torch
from torch.utils.data import Dataset


class NucleiDataset(Dataset):
    """Grayscale crops and their binary masks, as the data pipeline writes them: masks stored as 1xHxW images."""

    def __init__(self, n=12, size=32, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n, 1, size, size, generator=g)
        self.masks = (self.images > 0.6).float()

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        image = (self.images[idx] - 0.5) / 0.5
        mask = self.masks[idx]
        return image, mask
