import torch
from torch.utils.data import Dataset


def to_tensor(array):
    """HxW or HxWxC array-like -> CxHxW tensor (as the image transforms do)."""
    t = torch.as_tensor(array)
    if t.dim() == 2:
        t = t.unsqueeze(-1)
    return t.permute(2, 0, 1).contiguous()


class SegList(Dataset):
    def __init__(self, n=6, size=16, num_classes=3, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n, size, size, 3, generator=g)
        self.labels = torch.randint(0, num_classes, (n, size, size), generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        image = to_tensor(self.images[index]).float()
        label = to_tensor(self.labels[index]).long()
        return image, label
