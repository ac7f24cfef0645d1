import argparse
import logging

import torch

from model import TinyRPNHead
from utils.training_stats import TrainingStats


def parse_args():
    parser = argparse.ArgumentParser(description="Train a region proposal head")
    parser.add_argument("--iters", type=int, default=10)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--batch-size", type=int, default=2)
    return parser.parse_args([])


def get_minibatch(batch_size):
    images = torch.randn(batch_size, 3, 16, 16)
    obj = (torch.rand(batch_size, 3, 8, 8) > 0.9).float()
    boxes = torch.randn(batch_size, 12, 8, 8) * 0.1
    return images, obj, boxes


def main():
    logging.basicConfig(level=logging.INFO)
    args = parse_args()
    torch.manual_seed(0)
    model = TinyRPNHead()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4)
    training_stats = TrainingStats(log_period=4)
    model.train()
    for step in range(args.iters):
        losses = model(*get_minibatch(args.batch_size))
        total_loss = sum(losses.values())
        optimizer.zero_grad()
        total_loss.backward()
        optimizer.step()
        training_stats.update_stats(losses, total_loss)
        training_stats.log_stats(step)


if __name__ == "__main__":
    main()
