import torch
from torch.utils.data import Dataset


class FundusPatches(Dataset):
    """Random square patches of a grey fundus image with thin synthetic 'vessels' as the mask."""

    def __init__(self, n, patch, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images, self.masks = [], []
        for _ in range(n):
            mask = torch.zeros(1, patch, patch)
            for _ in range(4):
                row = int(torch.randint(0, patch, (1,), generator=g))
                mask[:, max(row - 1, 0) : row + 1, :] = 1.0
            img = 0.6 * mask + 0.4 * torch.rand(1, patch, patch, generator=g)
            self.images.append(img)
            self.masks.append(mask)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.masks[i]
