import argparse
import logging

import torch

from data import VOCAB, make_batches
from punct.model import PunctuationTagger
from punct.trainer import TaggerTrainer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--lr", type=float, default=3e-3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(2)

    batches = make_batches(10, args.batch_size)
    weights = torch.tensor([0.3, 1.0, 1.0, 2.0])
    trainer = TaggerTrainer(PunctuationTagger(VOCAB), lr=args.lr, mark_weights=weights)
    for epoch in range(args.epochs):
        losses = [trainer.train_batch(tokens, marks) for tokens, marks in batches]
        logging.info("epoch %d mean loss %.4f", epoch, sum(losses) / len(losses))


if __name__ == "__main__":
    main()
