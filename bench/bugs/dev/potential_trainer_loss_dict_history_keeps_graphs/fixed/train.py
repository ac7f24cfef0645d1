import argparse
import logging

import torch

from config import DEFAULT_CONFIG
from data import build_loader
from model import AtomwiseNet
from trainer import Trainer


def main():
    parser = argparse.ArgumentParser(description="fit a small atomistic model")
    parser.add_argument("--max-epochs", type=int, default=DEFAULT_CONFIG["max_epochs"])
    args = parser.parse_args([])
    cfg = dict(DEFAULT_CONFIG, max_epochs=args.max_epochs)

    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(cfg["seed"])

    model = AtomwiseNet(cfg["n_species"], cfg["embed_dim"], cfg["hidden"])
    trainer = Trainer(
        model,
        loss_coeffs=cfg["loss_coeffs"],
        learning_rate=cfg["learning_rate"],
        max_epochs=cfg["max_epochs"],
        log_batch_freq=cfg["log_batch_freq"],
    )
    logs = trainer.train(build_loader(cfg))
    print("final", logs[-1])


if __name__ == "__main__":
    main()
