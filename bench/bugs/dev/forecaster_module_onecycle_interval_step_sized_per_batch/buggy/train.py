import argparse
import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from forecaster import WindowForecaster
from lite import LiteTrainer


def load_curve(n_days, generator):
    hours = torch.arange(n_days * 24, dtype=torch.float32)
    daily = torch.sin(2 * torch.pi * hours / 24)
    return 1.0 + 0.5 * daily + 0.05 * torch.randn(len(hours), generator=generator)


def windows(series, window, horizon):
    xs = series.unfold(0, window + horizon, 6)
    return TensorDataset(xs[:, :window], xs[:, window:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--window", type=int, default=24)
    parser.add_argument("--horizon", type=int, default=6)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=8)
    args = parser.parse_args([])

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    ds = windows(load_curve(6, gen), args.window, args.horizon)
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True, generator=gen)
    model = WindowForecaster(args.window, args.horizon, 32, max_lr=1e-2, epochs=args.epochs,
                             steps_per_epoch=len(loader))
    LiteTrainer(max_epochs=args.epochs).fit(model, loader)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
