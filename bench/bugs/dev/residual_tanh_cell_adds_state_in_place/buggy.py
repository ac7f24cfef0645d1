from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class Config:
    n_series: int = 6
    window: int = 10
    hidden: int = 24
    batch_size: int = 16
    lr: float = 3e-3
    epochs: int = 2


class WindowDataset(Dataset):
    def __init__(self, series, window):
        self.series = series
        self.window = window

    def __len__(self):
        return self.series.shape[0] - self.window

    def __getitem__(self, i):
        return self.series[i : i + self.window], self.series[i + self.window, 0]


class ResidualTanhCell(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.inp = nn.Linear(n_in, hidden)
        self.rec = nn.Linear(hidden, hidden, bias=False)

    def forward(self, x_t, h):
        h_new = torch.tanh(self.inp(x_t) + self.rec(h))
        h_new += h
        return h_new


class Forecaster(nn.Module):
    def __init__(self, n_series, hidden):
        super().__init__()
        self.hidden = hidden
        self.cell = ResidualTanhCell(n_series, hidden)
        self.head = nn.Linear(hidden, 1)

    def forward(self, windows):
        h = windows.new_zeros(windows.size(0), self.hidden)
        for t in range(windows.size(1)):
            h = self.cell(windows[:, t], h)
        return self.head(h).squeeze(-1)


def train(cfg: Config):
    torch.manual_seed(0)
    t = torch.linspace(0, 20, 200).unsqueeze(1)
    series = torch.sin(t * torch.arange(1, cfg.n_series + 1)) + 0.05 * torch.randn(200, cfg.n_series)
    loader = DataLoader(WindowDataset(series, cfg.window), batch_size=cfg.batch_size, shuffle=True)
    model = Forecaster(cfg.n_series, cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loss_fn = nn.MSELoss()
    for epoch in range(cfg.epochs):
        total = 0.0
        for windows, target in loader:
            opt.zero_grad()
            loss = loss_fn(model(windows), target)
            loss.backward()
            opt.step()
            total += loss.item() * windows.size(0)
        print(f"epoch {epoch}: mse {total / len(loader.dataset):.4f}")


if __name__ == "__main__":
    train(Config())
