import math

import torch


@torch.no_grad()
def rmse(model, loader) -> float:
    model.eval()
    se, n = 0.0, 0
    for users, items, ratings in loader:
        pred = model(users, items).clamp(1.0, 5.0)
        se += ((pred - ratings) ** 2).sum().item()
        n += ratings.numel()
    model.train()
    return math.sqrt(se / n)
