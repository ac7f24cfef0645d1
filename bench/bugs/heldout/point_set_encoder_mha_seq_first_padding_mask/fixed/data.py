import torch


def random_point_sets(n: int = 16, max_points: int = 10, num_classes: int = 5, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    sets, labels = [], []
    for _ in range(n):
        k = int(torch.randint(4, max_points + 1, (1,), generator=g))
        label = int(torch.randint(0, num_classes, (1,), generator=g))
        sets.append(torch.randn(k, 3, generator=g) + label)
        labels.append(label)
    return sets, torch.tensor(labels)


def pad_sets(sets: list[torch.Tensor], max_points: int = 10):
    """Stack sets into (batch, max_points, 3) with a mask that is True on padding."""
    batch = torch.zeros(len(sets), max_points, 3)
    mask = torch.ones(len(sets), max_points, dtype=torch.bool)
    for i, s in enumerate(sets):
        batch[i, : len(s)] = s
        mask[i, : len(s)] = False
    return batch, mask
