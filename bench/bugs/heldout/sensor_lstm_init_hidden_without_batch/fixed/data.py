import torch


def sensor_windows(n_windows: int = 6, batch_size: int = 8, window: int = 20, n_features: int = 6):
    """Consecutive windows of a batch of parallel streams, as (x, next value) pairs."""
    g = torch.Generator().manual_seed(0)
    series = torch.randn(batch_size, n_windows * window + 1, n_features, generator=g).cumsum(dim=1) * 0.1
    for w in range(n_windows):
        start = w * window
        x = series[:, start : start + window]
        y = series[:, start + window, :1]
        yield x, y
