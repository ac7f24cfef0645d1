from dataclasses import dataclass

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from model import Forecaster


@dataclass
class Config:
    n_features: int = 5
    window: int = 24
    batch_size: int = 16
    epochs: int = 1
    lr: float = 1e-3


class SlidingWindows(Dataset):
    def __init__(self, series: torch.Tensor, window: int) -> None:
        self.series = series
        self.window = window

    def __len__(self) -> int:
        return len(self.series) - self.window - 1

    def __getitem__(self, i: int):
        chunk = self.series[i : i + self.window + 1]
        return chunk[:-1], chunk[1:]


def main(cfg: Config) -> None:
    series = torch.cumsum(torch.randn(200, cfg.n_features), dim=0)
    loader = DataLoader(SlidingWindows(series, cfg.window), batch_size=cfg.batch_size, shuffle=True, drop_last=True)
    model = Forecaster(cfg.n_features)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loss_fn = nn.MSELoss()
    for epoch in range(cfg.epochs):
        for x, y in loader:
            pred = model(x)
            loss = loss_fn(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main(Config())
