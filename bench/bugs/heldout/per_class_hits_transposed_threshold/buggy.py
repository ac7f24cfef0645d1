import torch
from torch import nn


def per_class_positive_rate(scores: torch.Tensor, threshold: float = 0.5) -> torch.Tensor:
    """Fraction of samples predicted positive for each class, from (N, C) sigmoid scores."""
    by_class = scores.t()
    hits = by_class > threshold
    counts = hits.view(-1).reshape(by_class.size(0), -1).sum(dim=1)
    return counts.float() / scores.size(0)


tagger = nn.Sequential(nn.Linear(20, 6), nn.Sigmoid()).eval()
with torch.no_grad():
    rates = per_class_positive_rate(tagger(torch.randn(32, 20)))
print(rates)
