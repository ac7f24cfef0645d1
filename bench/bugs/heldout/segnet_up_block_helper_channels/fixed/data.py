import torch
from torch.utils.data import Dataset


class SyntheticBlobs(Dataset):
    """Images with one bright square each; the mask marks the square."""

    def __init__(self, n: int = 8, size: int = 32):
        g = torch.Generator().manual_seed(1)
        self.images = torch.rand(n, 3, size, size, generator=g) * 0.2
        self.masks = torch.zeros(n, size, size, dtype=torch.long)
        for i in range(n):
            r, c = torch.randint(0, size - 8, (2,), generator=g).tolist()
            self.images[i, :, r : r + 8, c : c + 8] += 0.8
            self.masks[i, r : r + 8, c : c + 8] = 1

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        return self.images[idx], self.masks[idx]
