import math

import torch
from torch.utils.data import Dataset


def gaussian_heatmaps(joints, size, sigma=1.5):
    """joints: (J, 2) in heatmap pixels -> (J, size, size)."""
    ys = torch.arange(size).view(-1, 1).float()
    xs = torch.arange(size).view(1, -1).float()
    maps = [torch.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * sigma ** 2)) for x, y in joints.tolist()]
    return torch.stack(maps)


class KeypointCrops(Dataset):
    def __init__(self, n, input_size, num_joints=17, stride=8, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n, 3, input_size, input_size, generator=g)
        self.heat_size = math.ceil(input_size / stride)
        self.joints = torch.rand(n, num_joints, 2, generator=g) * (self.heat_size - 1)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], gaussian_heatmaps(self.joints[i], self.heat_size)
