import numpy as np
import torch


def split_masks(n: int, train_frac: float = 0.5, val_frac: float = 0.2, seed: int = 0):
    perm = np.random.default_rng(seed).permutation(n)
    n_train, n_val = int(train_frac * n), int(val_frac * n)
    masks = []
    for idx in (perm[:n_train], perm[n_train:n_train + n_val], perm[n_train + n_val:]):
        m = torch.zeros(n, dtype=torch.bool)
        m[torch.from_numpy(idx)] = True
        masks.append(m)
    return masks


def accuracy(logits: torch.Tensor, labels: torch.Tensor) -> float:
    return (logits.argmax(1) == labels).float().mean().item()
