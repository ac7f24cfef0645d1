import torch
from torch.utils.data import DataLoader, Dataset


class Windows(Dataset):
    def __init__(self, n_series=6, length=96, context_length=24, prediction_length=6, seed=0):
        g = torch.Generator().manual_seed(seed)
        t = torch.arange(length, dtype=torch.float32)
        level = torch.randn(n_series, 1, generator=g)
        self.series = level + torch.sin(t / 6.0 + torch.rand(n_series, 1, generator=g) * 6) + 0.05 * torch.randn(
            n_series, length, generator=g
        )
        self.context_length, self.prediction_length = context_length, prediction_length
        self.per_series = length - context_length - prediction_length + 1

    def __len__(self):
        return self.series.size(0) * self.per_series

    def __getitem__(self, idx):
        s, start = divmod(idx, self.per_series)
        enc = self.series[s, start : start + self.context_length]
        dec = self.series[s, start + self.context_length : start + self.context_length + self.prediction_length]
        return {"encoder_cont": enc}, dec


def dataloader(batch_size=32, seed=0):
    return DataLoader(Windows(seed=seed), batch_size=batch_size, shuffle=True)
