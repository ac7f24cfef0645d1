import argparse
import logging

import torch

from config import PostnetConfig, TrainerConfig
from data import get_loader
from models import Postnet, PostnetLoss
from trainer import Trainer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=None)
    args = parser.parse_args([])

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    train_config = TrainerConfig()
    if args.epochs:
        train_config.epochs = args.epochs
    model_config = PostnetConfig()
    torch.manual_seed(train_config.seed)

    model = Postnet(model_config)
    criterion = PostnetLoss(model_config.loss_weights)
    trainer = Trainer(train_config, model, criterion, get_loader(train_config.batch_size, model_config.n_mels))
    history = trainer.fit()
    print(history[-1]["loss"])


if __name__ == "__main__":
    main()
