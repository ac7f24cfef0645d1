import torch
from torch.utils.data import DataLoader, TensorDataset


def moving_mnist_like(n, in_len=4, out_len=3, size=16, seed=0):
    """A bright square drifting across the frame; predict the next frames from the first ones."""
    g = torch.Generator().manual_seed(seed)
    total = in_len + out_len
    frames = torch.zeros(n, total, 1, size, size)
    start = torch.randint(0, size - 4, (n, 2), generator=g)
    velocity = torch.randint(-1, 2, (n, 2), generator=g)
    for t in range(total):
        pos = (start + velocity * t).clamp(0, size - 4)
        for i in range(n):
            r, c = pos[i].tolist()
            frames[i, t, 0, r:r + 4, c:c + 4] = 1.0
    return frames[:, :in_len], frames[:, in_len:]


def get_dataloaders(batch_size=4):
    train = TensorDataset(*moving_mnist_like(24, seed=0))
    valid = TensorDataset(*moving_mnist_like(8, seed=1))
    return DataLoader(train, batch_size=batch_size, shuffle=True), DataLoader(valid, batch_size=batch_size)
