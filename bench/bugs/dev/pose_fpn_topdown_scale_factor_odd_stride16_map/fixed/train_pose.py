import argparse
import logging
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from dataset import KeypointCrops
from model import PoseFPN

logger = logging.getLogger("pose")


def parse_args():
    parser = argparse.ArgumentParser(description="FPN keypoint heatmap training")
    parser.add_argument("--input-size", type=int, default=384)
    parser.add_argument("--num-joints", type=int, default=17)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--save-dir", default="")
    return parser.parse_args()


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def train_val(model: PoseFPN, args):
    loader = DataLoader(KeypointCrops(args.samples, args.input_size, args.num_joints), batch_size=args.batch_size,
                        shuffle=True)
    criterion = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4)
    for epoch in range(args.epochs):
        losses = AverageMeter()
        model.train()
        for img, heat_target in loader:
            heat = model(img)
            loss = criterion(heat, heat_target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.update(loss.item(), img.size(0))
        logger.info("epoch %d loss %.6f", epoch, losses.avg)
        if args.save_dir:
            torch.save(model.state_dict(), os.path.join(args.save_dir, f"pose_{epoch}.pth"))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    args = parse_args()
    train_val(PoseFPN(num_joints=args.num_joints), args)
