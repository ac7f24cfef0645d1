import torch
import torch.nn.functional as F


def sample_negatives(batch_size: int, n_items: int, k: int, generator=None) -> torch.Tensor:
    return torch.randint(1, n_items, (batch_size, k), generator=generator)


def bpr_loss(scores: torch.Tensor, positives: torch.Tensor, negatives: torch.Tensor) -> torch.Tensor:
    """Bayesian personalised ranking: each positive should outscore its sampled negatives."""
    pos = scores.gather(1, positives)
    neg = scores.gather(1, negatives)
    return -F.logsigmoid(pos - neg).mean()
