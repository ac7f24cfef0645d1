import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


def load_inspection_images(n, height, width, seed=0):
    """Line-scan camera frames: single-channel uint8 images, as the camera driver returns them."""
    rng = np.random.default_rng(seed)
    frames = rng.integers(0, 256, size=(n, height, width), dtype=np.uint8)
    labels = rng.integers(0, 4, size=(n,))
    return frames, labels


def to_tensor(frames):
    x = torch.from_numpy(frames).float().div_(255.0)
    return x.unsqueeze(1)


def build_loader(net_cfg, batch_size, seed=0):
    frames, labels = load_inspection_images(16, net_cfg["height"], net_cfg["width"], seed)
    ds = TensorDataset(to_tensor(frames), torch.from_numpy(labels).long())
    return DataLoader(ds, batch_size=batch_size, shuffle=True)
