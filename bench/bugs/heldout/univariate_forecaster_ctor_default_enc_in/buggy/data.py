import torch
from torch.utils.data import Dataset


class HourlyLoad(Dataset):
    """One hourly series (a single variable), cut into (history, horizon) windows."""

    n_vars = 1

    def __init__(self, length: int = 400, seq_len: int = 48, pred_len: int = 12):
        t = torch.arange(length, dtype=torch.float32)
        self.series = (torch.sin(t * 2 * torch.pi / 24) + 0.05 * torch.randn(length)).unsqueeze(-1)
        self.seq_len, self.pred_len = seq_len, pred_len

    def __len__(self):
        return len(self.series) - self.seq_len - self.pred_len

    def __getitem__(self, i):
        x = self.series[i : i + self.seq_len]
        y = self.series[i + self.seq_len : i + self.seq_len + self.pred_len]
        return x, y
