import argparse
import logging

import torch

from config import ExperimentConfig
from data import make_loader
from engine import CALLBACKS, Trainer
from model import PropertyRegressor
from optim import build_optimizer, build_scheduler


def main():
    parser = argparse.ArgumentParser(description="molecular property regression")
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--callbacks", nargs="*", default=["scheduler", "lr_monitor"])
    args = parser.parse_args([])

    cfg = ExperimentConfig()
    if args.epochs:
        cfg.epochs = args.epochs
    torch.manual_seed(cfg.seed)
    gen = torch.Generator().manual_seed(cfg.seed)

    loader = make_loader(cfg, gen)
    model = PropertyRegressor(cfg.atom_features, cfg.hidden, cfg.layers)
    optimizer = build_optimizer(model, cfg)
    scheduler = build_scheduler(optimizer, cfg, steps_per_epoch=len(loader))

    callbacks = []
    for name in args.callbacks:
        callbacks.append(CALLBACKS[name](scheduler) if name == "scheduler" else CALLBACKS[name]())
    Trainer(model, optimizer, callbacks).fit(loader, cfg.epochs)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
