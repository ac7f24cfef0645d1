import argparse
import logging

import torch

from ltr.actors import SiamActor
from ltr.data import train_loader
from ltr.net import SiameseTracker
from ltr.trainer import LTRTrainer


def run(settings):
    torch.manual_seed(settings.seed)
    net = SiameseTracker()
    actor = SiamActor(net)
    optimizer = torch.optim.Adam(net.parameters(), lr=settings.lr)
    trainer = LTRTrainer(actor, train_loader(settings.batch_size, settings.seed), optimizer)
    trainer.train(settings.epochs)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    run(parser.parse_args([]))
