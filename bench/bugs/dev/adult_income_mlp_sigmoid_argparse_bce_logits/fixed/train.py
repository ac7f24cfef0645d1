import argparse
import logging

import torch
from torch import nn

from data import NUMERIC, N_CATEGORICAL, get_loaders
from engine import accuracy, train_one_epoch
from model import AdultNet

LOSSES = {
    "bce_logits": lambda pos_weight: nn.BCEWithLogitsLoss(),
    "weighted_bce_logits": lambda pos_weight: nn.BCEWithLogitsLoss(pos_weight=pos_weight),
}


def get_args():
    parser = argparse.ArgumentParser(description="Target model for the Adult dataset")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--loss", choices=sorted(LOSSES), default="weighted_bce_logits")
    parser.add_argument("--seed", type=int, default=1234)
    return parser.parse_args()


def main():
    args = get_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(args.seed)
    train_loader, val_loader, pos_weight = get_loaders(args.batch_size, seed=args.seed)
    model = AdultNet(len(NUMERIC) + N_CATEGORICAL)
    criterion = LOSSES[args.loss](pos_weight)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        loss = train_one_epoch(model, train_loader, criterion, optimizer)
        logging.info("epoch %d loss %.4f val acc %.3f", epoch, loss, accuracy(model, val_loader))


if __name__ == "__main__":
    main()
