import argparse

import torch

from engine import train_one_epoch
from models import build


def get_args_parser():
    parser = argparse.ArgumentParser("DETR-style detector", add_help=False)
    parser.add_argument("--lr", default=1e-4, type=float)
    parser.add_argument("--weight_decay", default=1e-4, type=float)
    parser.add_argument("--epochs", default=2, type=int)
    parser.add_argument("--clip_max_norm", default=0.1, type=float)
    parser.add_argument("--num_classes", default=4, type=int)
    parser.add_argument("--bbox_loss_coef", default=5.0, type=float)
    return parser


def synthetic_loader(batches=3, batch_size=2, num_queries=5, num_classes=4):
    for _ in range(batches):
        yield torch.rand(batch_size, 3, 32, 32), {
            "labels": torch.randint(0, num_classes + 1, (batch_size, num_queries)),
            "boxes": torch.rand(batch_size, num_queries, 4),
        }


def main(args):
    model, criterion = build(args)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 200)
    for epoch in range(args.epochs):
        train_one_epoch(model, criterion, list(synthetic_loader()), optimizer, epoch, args.clip_max_norm)
        lr_scheduler.step()


if __name__ == "__main__":
    main(get_args_parser().parse_args([]))
