import torch
from torch.utils.data import Dataset


class SyntheticLanes(Dataset):
    """Images with up to four vertical stripes; the label map marks each stripe by its lane slot."""

    def __init__(self, n=16, num_lanes=4, height=32, width=64, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = 0.1 * torch.randn(n, 3, height, width, generator=g)
        self.labels = torch.zeros(n, height, width, dtype=torch.long)
        self.exist = (torch.rand(n, num_lanes, generator=g) > 0.3).float()
        slot = width // num_lanes
        for i in range(n):
            for lane in range(num_lanes):
                if self.exist[i, lane]:
                    col = lane * slot + slot // 2
                    self.images[i, :, :, col - 1:col + 2] += 1.0
                    self.labels[i, :, col - 1:col + 2] = lane + 1

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return {"img": self.images[i], "label": self.labels[i], "exist": self.exist[i]}
