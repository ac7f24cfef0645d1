import torch
from torch.utils.data import DataLoader, TensorDataset


def toy_scenes(n=24, size=32, num_queries=4, num_classes=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    images = 0.1 * torch.rand(n, 3, size, size, generator=g)
    labels = torch.randint(0, num_classes + 1, (n, num_queries), generator=g)
    centers = torch.rand(n, num_queries, 2, generator=g) * 0.6 + 0.2
    wh = torch.full((n, num_queries, 2), 0.2)
    boxes = torch.cat([centers, wh], dim=-1)
    for i in range(n):
        for q in range(num_queries):
            if labels[i, q] < num_classes:
                cx, cy = (centers[i, q] * size).long().tolist()
                images[i, labels[i, q], max(cy - 3, 0) : cy + 3, max(cx - 3, 0) : cx + 3] = 1.0
    return TensorDataset(images, labels, boxes)


def build_loader(batch_size=4, seed=0):
    return DataLoader(toy_scenes(seed=seed), batch_size=batch_size, shuffle=True)
