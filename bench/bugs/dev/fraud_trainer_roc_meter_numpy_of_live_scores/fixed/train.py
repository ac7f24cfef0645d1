import logging

import torch

from config import CONFIG
from data import train_loader
from model import FraudScorer
from trainer import FraudTrainer


def main(cfg=CONFIG):
    torch.manual_seed(cfg["seed"])
    gen = torch.Generator().manual_seed(cfg["seed"])
    model = FraudScorer(cfg["n_features"], cfg["hidden"], cfg["dropout"])
    trainer = FraudTrainer(model, cfg["lr"], cfg["pos_weight"])
    loader = train_loader(cfg, gen)
    for epoch in range(cfg["epochs"]):
        trainer.train_epoch(loader, epoch)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
