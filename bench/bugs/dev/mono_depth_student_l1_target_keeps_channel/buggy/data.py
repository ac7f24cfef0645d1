import numpy as np
import torch
from torch.utils.data import Dataset


class PseudoDepthDataset(Dataset):
    """RGB frames with a teacher's depth map next to each, stored the way the teacher wrote them: (1, H, W)."""

    def __init__(self, n: int = 32, size: int = 24, seed: int = 0):
        rng = np.random.default_rng(seed)
        ys, xs = np.mgrid[0:size, 0:size] / size
        self.frames, self.depths = [], []
        for _ in range(n):
            tilt = rng.uniform(0.5, 2.0)
            depth = (1.0 + tilt * ys + 0.2 * rng.standard_normal((size, size))).astype(np.float32)
            rgb = np.stack([depth * c + 0.1 * rng.standard_normal((size, size)) for c in (0.3, 0.5, 0.7)])
            self.frames.append(rgb.astype(np.float32))
            self.depths.append(depth[None])

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, idx):
        return torch.from_numpy(self.frames[idx]), torch.from_numpy(self.depths[idx])
