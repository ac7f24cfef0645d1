import argparse
import logging

import torch

from config import TrainConfig
from data import make_loaders
from model import MLPRegressor

log = logging.getLogger("sensor")


def regression_loss(model, batch):
    features, target = batch
    pred = model(features).squeeze(-1)
    return ((pred - target) ** 2).mean()


def run_epoch(model, loader, optimizer=None):
    training = optimizer is not None
    model.train(training)
    total, count = 0.0, 0
    with torch.set_grad_enabled(training):
        for batch in loader:
            loss = regression_loss(model, batch)
            if training:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            total += loss.item() * batch[0].size(0)
            count += batch[0].size(0)
    return total / max(count, 1)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=None)
    args = parser.parse_args(argv)
    cfg = TrainConfig()
    if args.epochs:
        cfg.epochs = args.epochs
    torch.manual_seed(cfg.seed)
    logging.basicConfig(level=logging.INFO)

    train_loader, val_loader = make_loaders(cfg)
    model = MLPRegressor(cfg.n_features, cfg.hidden, cfg.dropout)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        train_mse = run_epoch(model, train_loader, optimizer)
        val_mse = run_epoch(model, val_loader)
        log.info("epoch %d train_mse %.4f val_mse %.4f", epoch, train_mse, val_mse)


if __name__ == "__main__":
    main([])
