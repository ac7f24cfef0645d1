from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader, Dataset

from model import GraphForecaster


@dataclass
class Config:
    dataset: str = "SMD"
    num_nodes: int = 65
    window: int = 12
    batch_size: int = 4
    epochs: int = 1
    lr: float = 1e-3


class SlidingWindows(Dataset):
    """Machine metrics (38 channels for SMD); each item is a window and the next step."""

    def __init__(self, length=60, channels=38, window=12):
        self.series = torch.randn(length, channels)
        self.window = window
        self.num_nodes = channels

    def __len__(self):
        return len(self.series) - self.window

    def __getitem__(self, i):
        x = self.series[i:i + self.window].t().unsqueeze(0)
        return x, self.series[i + self.window]


def fit(cfg, data):
    model = GraphForecaster(cfg.num_nodes, cfg.window)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loader = DataLoader(data, batch_size=cfg.batch_size, shuffle=True)
    for epoch in range(cfg.epochs):
        for x, y in loader:
            pred = model(x)
            loss = torch.nn.functional.mse_loss(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())
    return model


if __name__ == "__main__":
    cfg = Config()
    fit(cfg, SlidingWindows(window=cfg.window))
