import torch
from torch.utils.data import DataLoader, TensorDataset


def blobs(n, size, generator):
    """Images with one bright disc on noise; the mask marks the disc."""
    ys, xs = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    centre = torch.rand(n, 2, generator=generator) * (size - 8) + 4
    radius = 2 + 3 * torch.rand(n, generator=generator)
    d2 = (ys[None] - centre[:, 0, None, None]) ** 2 + (xs[None] - centre[:, 1, None, None]) ** 2
    mask = (d2 <= radius[:, None, None] ** 2).float().unsqueeze(1)
    images = 0.3 * torch.randn(n, 3, size, size, generator=generator) + mask
    return TensorDataset(images, mask)


def loaders(n_train, n_val, size, batch_size, generator):
    train = DataLoader(blobs(n_train, size, generator), batch_size=batch_size, shuffle=True, generator=generator)
    val = DataLoader(blobs(n_val, size, generator), batch_size=batch_size)
    return train, val
