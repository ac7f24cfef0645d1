import torch
from torch.utils.data import DataLoader, TensorDataset


def fake_fashion(n, seed):
    """Ten class templates plus noise, shaped like FashionMNIST's 1x28x28 images."""
    g = torch.Generator().manual_seed(seed)
    templates = torch.rand(10, 1, 28, 28, generator=torch.Generator().manual_seed(1234))
    y = torch.randint(0, 10, (n,), generator=g)
    X = templates[y] + 0.5 * torch.randn(n, 1, 28, 28, generator=g)
    return TensorDataset(X, y)


def get_dataloaders(batch_size=16):
    train_dataloader = DataLoader(fake_fashion(96, seed=0), batch_size=batch_size, shuffle=True)
    test_dataloader = DataLoader(fake_fashion(32, seed=1), batch_size=batch_size)
    return train_dataloader, test_dataloader
