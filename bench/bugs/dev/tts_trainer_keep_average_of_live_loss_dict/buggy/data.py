import torch
from torch.utils.data import DataLoader, TensorDataset


def coarse_and_target_mels(n_items=32, n_mels=20, frames=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    target = torch.randn(n_items, n_mels, frames, generator=g).cumsum(-1) / 4
    coarse = target + 0.3 * torch.randn(n_items, n_mels, frames, generator=g)
    return TensorDataset(coarse, target)


def get_loader(batch_size, n_mels):
    return DataLoader(coarse_and_target_mels(n_mels=n_mels), batch_size=batch_size, shuffle=True, drop_last=True)
