import torch
from torch.utils.data import DataLoader, Dataset


class SyntheticScenes(Dataset):
    """Points in a unit cube, labelled foreground inside a random ball."""

    def __init__(self, n_scenes=24, n_points=128, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.pts = torch.rand(n_scenes, n_points, 3, generator=g)
        centers = torch.rand(n_scenes, 1, 3, generator=g)
        self.labels = ((self.pts - centers).norm(dim=-1) < 0.35).long()

    def __len__(self):
        return len(self.pts)

    def __getitem__(self, i):
        return self.pts[i], self.labels[i]


def build_loaders(batch_size, seed):
    train = DataLoader(SyntheticScenes(seed=seed), batch_size=batch_size, shuffle=True, drop_last=True)
    test = DataLoader(SyntheticScenes(n_scenes=8, seed=seed + 1), batch_size=batch_size, shuffle=False)
    return train, test
