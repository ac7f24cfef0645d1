import torch


def make_loaders(n_labeled=32, n_unlabeled=64, n_test=32, batch_size=16):
    g = torch.Generator().manual_seed(0)
    def split(n, labeled=True):
        x = torch.randn(n, 1, 12, 12, generator=g)
        y = torch.randint(0, 4, (n,), generator=g)
        return torch.utils.data.TensorDataset(x, y)
    mk = lambda ds, shuffle: torch.utils.data.DataLoader(ds, batch_size=batch_size, shuffle=shuffle, drop_last=shuffle)
    return mk(split(n_labeled), True), mk(split(n_unlabeled), True), mk(split(n_test), False)


def test(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.numel()
    return correct / max(total, 1)
