import math

import torch
import torch.nn.functional as F
from torch import nn


class KANLinear(nn.Module):
    """A Kolmogorov-Arnold layer: a base linear map plus learned RBF activations on every input feature."""

    def __init__(self, in_features: int, out_features: int, grid_size: int = 5) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.register_buffer("grid", torch.linspace(-2, 2, grid_size))
        self.base_weight = nn.Parameter(torch.randn(out_features, in_features) / math.sqrt(in_features))
        self.spline_weight = nn.Parameter(torch.randn(out_features, in_features * grid_size) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        original_shape = x.shape
        x = x.view(-1, self.in_features)
        basis = torch.exp(-((x.unsqueeze(-1) - self.grid) ** 2))
        out = F.linear(F.silu(x), self.base_weight) + F.linear(basis.flatten(1), self.spline_weight)
        return out.view(*original_shape[:-1], self.out_features)


class KANMixer(nn.Module):
    """Mixes a multivariate series over its channels at every time step, then classifies it."""

    def __init__(self, channels: int, hidden: int, num_classes: int) -> None:
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, 5, padding=2)
        self.kan = KANLinear(channels, hidden)
        self.head = nn.Linear(hidden, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.conv(x)
        h = self.kan(x.transpose(1, 2))
        return self.head(h.mean(dim=1))


if __name__ == "__main__":
    model = KANMixer(channels=6, hidden=16, num_classes=3)
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, history_size=5)
    series, labels = torch.randn(8, 6, 40), torch.randint(0, 3, (8,))

    def closure():
        optimizer.zero_grad()
        loss = F.cross_entropy(model(series), labels)
        loss.backward()
        return loss

    for step in range(2):
        print(step, optimizer.step(closure).item())
