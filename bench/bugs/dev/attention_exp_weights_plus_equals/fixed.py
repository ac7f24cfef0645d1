import torch
import torch.nn as nn


class PositiveAttentionPool(nn.Module):
    """Pools frames with exp-scores (kept positive by an epsilon), normalized by their sum."""

    def __init__(self, dim=24):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, frames):
        w = torch.exp(self.score(frames))
        w = w + 1e-6
        w = w / w.sum(dim=1, keepdim=True)
        return (w * frames).sum(dim=1)


pool = PositiveAttentionPool()
head = nn.Linear(24, 3)
frames = torch.randn(5, 12, 24)
labels = torch.randint(0, 3, (5,))
loss = nn.functional.cross_entropy(head(pool(frames)), labels)
loss.backward()
print(loss.item())
