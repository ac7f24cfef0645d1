"""Store-level demand forecaster trained with a pinball loss over three quantiles."""
import torch
import torch.nn as nn

QUANTILES = (0.1, 0.5, 0.9)
LAGS = 14


def make_series(n_days: int = 200, seed: int = 6) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n_days, dtype=torch.float32)
    weekly = 10 * torch.sin(2 * torch.pi * t / 7)
    return 50 + weekly + 0.05 * t + 3 * torch.randn(n_days, generator=g)


def lagged(series: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    x = torch.stack([series[i:i + LAGS] for i in range(len(series) - LAGS)])
    y = series[LAGS:]
    return x, y


class QuantileMLP(nn.Module):
    def __init__(self, hidden: int = 32) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LAGS, hidden), nn.ReLU(), nn.Linear(hidden, len(QUANTILES)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


def pinball_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    q = torch.tensor(QUANTILES, device=pred.device)
    err = target.unsqueeze(-1) - pred
    return torch.maximum(q * err, (q - 1) * err).mean()


def main() -> None:
    torch.manual_seed(0)
    series = make_series()
    mean, std = series.mean(), series.std()
    x, y = lagged((series - mean) / std)
    model = QuantileMLP()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), 32):
            idx = perm[i:i + 32]
            loss = pinball_loss(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} pinball {loss.item():.4f}")


if __name__ == "__main__":
    main()
