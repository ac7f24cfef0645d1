import argparse
import logging

import torch

from data import get_loaders
from textclf.model import BertClassifier
from textclf.trainer import Trainer


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--num_labels", type=int, default=5)
    parser.add_argument("--seed", type=int, default=42)
    return parser.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(args.seed)
    train_loader, valid_loader = get_loaders(args.batch_size, num_labels=args.num_labels)
    model = BertClassifier(num_labels=args.num_labels)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    trainer = Trainer(model, optimizer, train_loader, valid_loader)
    best = trainer.fit(args.epochs)
    logging.info("best valid acc %.3f", best)


if __name__ == "__main__":
    main()
