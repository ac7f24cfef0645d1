import argparse
import logging

import torch
from torch.utils.data import DataLoader

from config import DEFAULTS
from rul.data import RULWindows, simulate_fleet
from rul.model import GRURegressor
from rul.trainer import RULTrainer


def get_args():
    parser = argparse.ArgumentParser(description="RUL estimation from sensor windows")
    for key, value in DEFAULTS.items():
        parser.add_argument(f"--{key.replace('_', '-')}", type=type(value), default=value)
    return parser.parse_args()


def main():
    args = get_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    torch.manual_seed(args.seed)
    fleet = simulate_fleet(args.n_engines, args.n_sensors, seed=args.seed)
    loader = DataLoader(RULWindows(fleet, window=args.window), batch_size=args.batch_size, shuffle=True)
    model = GRURegressor(args.n_sensors, hidden=args.hidden, num_layers=args.num_layers)
    trainer = RULTrainer(model, lr=args.lr)
    for epoch in range(args.epochs):
        loss = trainer.fit_epoch(loader)
        logging.info("epoch %d mse %.5f best %.5f", epoch, loss, trainer.best)


if __name__ == "__main__":
    main()
