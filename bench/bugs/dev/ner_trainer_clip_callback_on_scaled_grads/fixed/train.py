import argparse
import logging

import torch

from tagging.callbacks import ConsoleLogger, GradientNormClipping
from tagging.data import make_loader
from tagging.model import ConvTagger
from tagging.trainer import GradientDescentTrainer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--grad-norm", type=float, default=5.0)
    parser.add_argument("--amp", action="store_true")
    args = parser.parse_args(["--amp"])

    torch.manual_seed(0)
    model = ConvTagger(vocab_size=50, num_tags=5)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    callbacks = [GradientNormClipping(args.grad_norm), ConsoleLogger()]
    trainer = GradientDescentTrainer(model, optimizer, make_loader(args.batch_size), callbacks, use_amp=args.amp)
    trainer.train(args.epochs)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
