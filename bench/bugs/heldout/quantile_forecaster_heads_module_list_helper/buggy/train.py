import logging

import torch

from losses import pinball_loss
from model import QuantileForecaster

log = logging.getLogger("forecast")


def series_windows(n=32, lookback=12, horizon=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(lookback + horizon).float()
    phase = torch.rand(n, 1, generator=g) * 6.28
    signal = torch.sin(t / 3 + phase) + 0.1 * torch.randn(n, lookback + horizon, generator=g)
    feats = torch.stack([signal, signal.roll(1, 1), t.expand(n, -1) / 20, torch.ones_like(signal)], dim=-1)
    return feats[:, :lookback], signal[:, lookback:]


def main(epochs=3):
    torch.manual_seed(0)
    history, future = series_windows()
    model = QuantileForecaster()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        opt.zero_grad()
        loss = pinball_loss(model(history), future, model.quantiles)
        loss.backward()
        opt.step()
        log.info("epoch %d pinball %.4f", epoch, loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
