import torch
from torch.utils.data import Dataset


class MaskedImages(Dataset):
    """Random smooth images with a square hole each, as the inpainting loaders produce."""

    def __init__(self, n=16, size=32, seed=0):
        g = torch.Generator().manual_seed(seed)
        low = torch.rand(n, 3, size // 8, size // 8, generator=g)
        self.images = torch.nn.functional.interpolate(low, size=(size, size), mode="bilinear", align_corners=False)
        self.masks = torch.zeros(n, 1, size, size)
        for i in range(n):
            y, x = torch.randint(0, size // 2, (2,), generator=g).tolist()
            self.masks[i, :, y : y + size // 2, x : x + size // 2] = 1

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return self.images[index], self.masks[index]
