import torch
from torch import nn


class FeatureDistance(nn.Module):
    """LPIPS-like distance: returns one (N, 1, 1, 1) value per image pair."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
        self.lin = nn.Conv2d(8, 1, 1, bias=False)

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        fa, fb = self.features(a), self.features(b)
        fa = fa / (fa.norm(dim=1, keepdim=True) + 1e-10)
        fb = fb / (fb.norm(dim=1, keepdim=True) + 1e-10)
        return self.lin((fa - fb) ** 2).mean(dim=(2, 3), keepdim=True)


def evaluate_pair(metric: nn.Module, rendered: torch.Tensor, reference: torch.Tensor) -> float:
    with torch.no_grad():
        distance = metric(rendered[None], reference[None])
    return distance.flatten()[0].item()


metric = FeatureDistance().eval()
frames = torch.rand(3, 3, 32, 32)
targets = torch.rand(3, 3, 32, 32)
scores = [evaluate_pair(metric, f, t) for f, t in zip(frames, targets)]
print(sum(scores) / len(scores))
