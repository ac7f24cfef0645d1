import torch
from torch.utils.data import DataLoader, Dataset


class LineImages(Dataset):
    """Dark images with a few bright one-pixel lines (the 'vessels') and their masks."""

    def __init__(self, n=16, size=32, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.masks = torch.zeros(n, 1, size, size)
        for i in range(n):
            for _ in range(3):
                r = torch.randint(0, size, (1,), generator=g).item()
                if torch.rand(1, generator=g).item() < 0.5:
                    self.masks[i, 0, r, :] = 1
                else:
                    self.masks[i, 0, :, r] = 1
        self.images = self.masks * 0.8 + 0.2 * torch.rand(n, 1, size, size, generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.masks[i]


def loaders(batch_size):
    return DataLoader(LineImages(), batch_size=batch_size, shuffle=True)
