from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class FitResult:
    weight: list
    bias: float
    final_loss: float


def make_problem(sample_size: int = 100, seed: int = 0):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn((sample_size, 2), generator=gen)
    eps = torch.randn(sample_size, generator=gen)
    y = 10 + 9 * x[:, 0] - 2 * x[:, 1] + eps
    return x, y


class Regressor(nn.Module):
    def __init__(self, n_features: int = 2) -> None:
        super().__init__()
        self.linear = nn.Linear(n_features, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x)


def fit(model: Regressor, x: torch.Tensor, y: torch.Tensor, epochs: int = 30, lr: float = 0.1) -> FitResult:
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    loss_func = nn.MSELoss()
    for _ in range(epochs):
        optimizer.zero_grad()
        yhat = model(x)
        loss_val = loss_func(yhat, y)
        loss_val.backward()
        optimizer.step()
    return FitResult(model.linear.weight.data.flatten().tolist(), model.linear.bias.item(), loss_val.item())


if __name__ == "__main__":
    x, y = make_problem()
    print(fit(Regressor(), x, y))
