import torch
from torch.utils.data import Dataset


class RandomBoxes(Dataset):
    """Random images with targets already assigned to a 4x4 grid of 3 anchors."""

    def __init__(self, n=32, size=32, grid=4, anchors=3, num_classes=4, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n, 3, size, size, generator=g)
        self.obj = (torch.rand(n, anchors, grid, grid, generator=g) < 0.1).float()
        self.xywh = torch.rand(n, anchors, grid, grid, 4, generator=g)
        labels = torch.randint(0, num_classes, (n, anchors, grid, grid), generator=g)
        self.cls = torch.nn.functional.one_hot(labels, num_classes).float()

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], {"obj": self.obj[i], "xywh": self.xywh[i], "cls": self.cls[i]}
