import logging

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from config import load_config
from model import StockForecaster

logging.basicConfig(level=logging.INFO, format="%(message)s")
log = logging.getLogger("stocks")


def make_windows(prices: np.ndarray, window: int):
    """prices: (days, features); predict the next day's close (column 3) from the last `window` days."""
    xs = np.stack([prices[i : i + window] for i in range(len(prices) - window)])
    ys = prices[window:, 3]
    return torch.from_numpy(xs).float(), torch.from_numpy(ys).float()


def synthetic_prices(n_days: int, n_features: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    close = 100 + np.cumsum(rng.normal(0, 1, n_days))
    cols = [close + rng.normal(0, 0.5, n_days) for _ in range(n_features - 1)] + [rng.uniform(1, 2, n_days)]
    table = np.stack(cols, axis=1)
    table[:, 3] = close
    return (table - table.mean(0)) / table.std(0)


class Trainer:
    def __init__(self, model: StockForecaster, lr: float):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.loss_fn = nn.MSELoss()

    def epoch(self, loader) -> float:
        self.model.train()
        losses = []
        for xb, yb in loader:
            pred = self.model(xb)
            loss = self.loss_fn(pred, yb)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            losses.append(loss.item())
        return float(np.mean(losses))


def main():
    cfg = load_config()
    torch.manual_seed(0)
    x, y = make_windows(synthetic_prices(cfg["n_days"], len(cfg["features"])), cfg["window"])
    loader = DataLoader(TensorDataset(x, y), batch_size=cfg["batch_size"], shuffle=True, drop_last=True)
    model = StockForecaster(len(cfg["features"]), cfg["hidden"], cfg["num_layers"], cfg["dropout"])
    trainer = Trainer(model, cfg["lr"])
    for epoch in range(cfg["epochs"]):
        log.info("epoch %d mse %.4f", epoch, trainer.epoch(loader))


if __name__ == "__main__":
    main()
