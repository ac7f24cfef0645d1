import torch
from torch.utils.data import DataLoader, Dataset

N_STATIONS = 10
N_FEATURES = 4  # pm2.5, no2, temperature, humidity


class StationReadings(Dataset):
    """One snapshot of every monitoring station: (stations, features), and the next-hour pm2.5 of each."""

    def __init__(self, n_snapshots=16, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n_snapshots, N_STATIONS, N_FEATURES, generator=g)
        self.y = self.x[:, :, 0] * 0.8 + 0.1 * torch.randn(n_snapshots, N_STATIONS, generator=g)

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def distance_adjacency(n=N_STATIONS, seed=0):
    g = torch.Generator().manual_seed(seed)
    coords = torch.rand(n, 2, generator=g)
    dist = torch.cdist(coords, coords)
    adj = torch.exp(-dist ** 2 / 0.1)
    return adj / adj.sum(dim=1, keepdim=True)


def get_loaders(batch_size=4):
    return (DataLoader(StationReadings(seed=0), batch_size=batch_size, shuffle=True),
            DataLoader(StationReadings(n_snapshots=8, seed=1), batch_size=batch_size))
