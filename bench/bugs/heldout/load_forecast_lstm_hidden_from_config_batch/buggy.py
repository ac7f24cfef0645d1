"""Hourly electricity load forecasting with a stateless LSTM over sliding windows."""
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CONFIG = {
    "window": 24,
    "horizon": 1,
    "hidden_size": 48,
    "num_layers": 2,
    "batch_size": 16,
    "epochs": 2,
    "lr": 1e-3,
}


class LoadWindows(Dataset):
    def __init__(self, series: torch.Tensor, window: int, horizon: int):
        self.series = series
        self.window = window
        self.horizon = horizon

    def __len__(self):
        return len(self.series) - self.window - self.horizon + 1

    def __getitem__(self, i):
        x = self.series[i:i + self.window]
        y = self.series[i + self.window:i + self.window + self.horizon]
        return x.unsqueeze(-1), y


class LoadForecaster(nn.Module):
    def __init__(self, config: dict):
        super().__init__()
        self.batch_size = config["batch_size"]
        self.hidden_size = config["hidden_size"]
        self.num_layers = config["num_layers"]
        self.lstm = nn.LSTM(1, self.hidden_size, self.num_layers, batch_first=True, dropout=0.1)
        self.out = nn.Linear(self.hidden_size, config["horizon"])

    def init_hidden(self):
        shape = (self.num_layers, self.batch_size, self.hidden_size)
        return torch.zeros(shape), torch.zeros(shape)

    def forward(self, x):
        hidden = self.init_hidden()
        out, _ = self.lstm(x, hidden)
        return self.out(out[:, -1])


def make_series(hours: int) -> torch.Tensor:
    t = torch.arange(hours, dtype=torch.float32)
    daily = torch.sin(2 * math.pi * t / 24)
    weekly = 0.3 * torch.sin(2 * math.pi * t / (24 * 7))
    return daily + weekly + 0.05 * torch.randn(hours)


def main():
    series = make_series(24 * 5 + 4)
    dataset = LoadWindows(series, CONFIG["window"], CONFIG["horizon"])
    loader = DataLoader(dataset, batch_size=CONFIG["batch_size"], shuffle=True)
    model = LoadForecaster(CONFIG)
    optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    loss_fn = nn.SmoothL1Loss()
    for epoch in range(CONFIG["epochs"]):
        running = 0.0
        for x, y in loader:
            optimizer.zero_grad()
            pred = model(x)
            loss = loss_fn(pred, y)
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: loss {running / len(loader):.4f}")


if __name__ == "__main__":
    main()
