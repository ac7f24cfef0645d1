import argparse
import logging

import torch

from data import get_loaders
from forecasting.forecaster import Forecaster
from forecasting.model import ContextTargetTransformer


def create_parser():
    parser = argparse.ArgumentParser(description="train the toy forecaster")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--d_model", type=int, default=32)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    return parser


def main(args):
    torch.manual_seed(args.seed)
    train_loader, test_samples = get_loaders(seed=args.seed)
    model = ContextTargetTransformer(d_x=2, d_y=1, d_model=args.d_model, dropout=args.dropout)
    forecaster = Forecaster(model)
    forecaster.fit(train_loader, args.epochs)

    xc, yc, xt, yt = test_samples
    yt_pred = forecaster.predict(xc, yc, xt)
    mse = torch.mean((yt_pred - yt) ** 2).item()
    print(f"test mse {mse:.4f}")


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main(create_parser().parse_args([]))
