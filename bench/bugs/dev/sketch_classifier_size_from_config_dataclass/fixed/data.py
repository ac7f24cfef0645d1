import torch
from torch.utils.data import DataLoader, TensorDataset

from config import DataConfig


def make_sketches(cfg: DataConfig, num_classes, seed=0):
    g = torch.Generator().manual_seed(seed)
    images = (torch.rand(cfg.n_train, cfg.channels, cfg.img_size, cfg.img_size, generator=g) > 0.9).float()
    labels = torch.randint(0, num_classes, (cfg.n_train,), generator=g)
    return TensorDataset(images, labels)


def make_loader(cfg: DataConfig, num_classes, batch_size):
    return DataLoader(make_sketches(cfg, num_classes), batch_size=batch_size, shuffle=True)
