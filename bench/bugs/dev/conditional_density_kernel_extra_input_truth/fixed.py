import math

import torch
from torch import nn


class SquaredNeuralDensity(nn.Module):
    """Conditional density p(y | x) proportional to ||V sin(W [y, x] + b)||^2 with a Gaussian base measure."""

    def __init__(self, y_dim: int, x_dim: int, n_features: int = 64, m: int = 8) -> None:
        super().__init__()
        self.y_dim = y_dim
        self.W = nn.Parameter(torch.randn(n_features, y_dim + x_dim))
        self.b = nn.Parameter(torch.rand(n_features) * 2 * math.pi)
        self.V = nn.Parameter(torch.randn(m, n_features) / math.sqrt(n_features))

    def _evaluate_kernel(self, y: torch.Tensor, extra_input=0) -> torch.Tensor:
        z = y
        if torch.is_tensor(extra_input):
            z = torch.cat([y, extra_input], dim=1)
        return torch.sin(z @ self.W.T + self.b)

    def log_density(self, y: torch.Tensor, extra_input=0) -> torch.Tensor:
        feats = self._evaluate_kernel(y, extra_input)
        unnorm = (feats @ self.V.T).pow(2).sum(dim=1) + 1e-6
        base = -0.5 * y.pow(2).sum(dim=1) - 0.5 * self.y_dim * math.log(2 * math.pi)
        return torch.log(unnorm) + base


def fit(model: SquaredNeuralDensity, y: torch.Tensor, x: torch.Tensor, epochs: int = 3) -> None:
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        nll = -model.log_density(y, extra_input=x).mean()
        optimizer.zero_grad()
        nll.backward()
        optimizer.step()
        print(f"epoch {epoch}: nll {nll.item():.3f}")


if __name__ == "__main__":
    x = torch.randn(128, 2)
    y = x[:, :1] * 0.5 + 0.1 * torch.randn(128, 1)
    fit(SquaredNeuralDensity(y_dim=1, x_dim=2), y, x)
