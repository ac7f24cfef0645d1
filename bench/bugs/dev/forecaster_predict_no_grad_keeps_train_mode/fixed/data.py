import torch
from torch.utils.data import DataLoader, TensorDataset


def toy_seasonal(n_series=48, context=24, target=8, d_y=1, seed=0):
    """Sines of random phase and period; time features are the normalised step and its phase in a day."""
    g = torch.Generator().manual_seed(seed)
    steps = torch.arange(context + target, dtype=torch.float32)
    phase = torch.rand(n_series, 1, generator=g) * 6.28
    period = 8 + 8 * torch.rand(n_series, 1, generator=g)
    y = torch.sin(steps / period * 6.28 + phase).unsqueeze(-1).repeat(1, 1, d_y)
    y = y + 0.05 * torch.randn(y.shape, generator=g)
    x = torch.stack([steps / (context + target), (steps % 24) / 24], dim=-1).expand(n_series, -1, -1)
    return x[:, :context], y[:, :context], x[:, context:], y[:, context:]


def get_loaders(batch_size=8, seed=0):
    train = TensorDataset(*toy_seasonal(seed=seed))
    test = toy_seasonal(n_series=8, seed=seed + 1)
    return DataLoader(train, batch_size=batch_size, shuffle=True), test
