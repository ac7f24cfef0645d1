import torch
import torch.nn as nn


class PointCompletionNet(nn.Module):
    """Encodes a partial cloud with a shared MLP + max-pool and decodes a fixed-size complete cloud."""

    def __init__(self, n_out: int = 64, width: int = 64):
        super().__init__()
        self.n_out = n_out
        self.encoder = nn.Sequential(nn.Linear(3, width), nn.ReLU(), nn.Linear(width, 2 * width))
        self.decoder = nn.Sequential(nn.Linear(2 * width, 4 * width), nn.ReLU(), nn.Linear(4 * width, 3 * n_out))

    def forward(self, partial: torch.Tensor) -> torch.Tensor:
        code = self.encoder(partial).max(dim=1).values
        return self.decoder(code).view(-1, self.n_out, 3)


def chamfer_distance(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    d = torch.cdist(a, b)
    return d.min(dim=2).values.mean() + d.min(dim=1).values.mean()
