import argparse
import logging

import torch

from model import TextCNN
from trainer import Trainer


def make_batches(n_batches, batch_size, seq_len, vocab, n_classes, seed):
    g = torch.Generator().manual_seed(seed)
    return [
        (torch.randint(0, vocab, (batch_size, seq_len), generator=g), torch.randint(0, n_classes, (batch_size,), generator=g))
        for _ in range(n_batches)
    ]


def main():
    parser = argparse.ArgumentParser(description="TextCNN on a synthetic benchmark")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])
    torch.manual_seed(0)
    train_batches = make_batches(4, 8, 16, 300, 4, seed=0)
    val_batches = make_batches(2, 8, 16, 300, 4, seed=1)
    trainer = Trainer(TextCNN(), lr=args.lr)
    for epoch in range(args.epochs):
        trainer.train_epoch(train_batches)
        logging.info("epoch %d val acc %.3f", epoch, trainer.evaluate(val_batches))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
