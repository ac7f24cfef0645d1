import argparse
import logging

import torch
import torch.optim as optim
import torch.optim.lr_scheduler as lr_sched

from data import build_loaders
from pointnet.model import PointNetSeg
from tools.train_utils import eval_one_epoch, train_one_epoch

parser = argparse.ArgumentParser(description="train and evaluate a point-wise segmenter")
parser.add_argument("--batch_size", type=int, default=4)
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--lr", type=float, default=2e-3)
parser.add_argument("--weight_decay", type=float, default=0.0)
parser.add_argument("--decay_step_list", type=list, default=[50, 70, 80, 90])
parser.add_argument("--lr_decay", type=float, default=0.2)
parser.add_argument("--eval_freq", type=int, default=1)
args = parser.parse_args([])


def main():
    logging.basicConfig(level=logging.INFO, format="%(asctime)s  %(message)s")
    torch.manual_seed(0)
    train_loader, test_loader = build_loaders(args.batch_size, seed=0)

    model = PointNetSeg(num_classes=2, input_channels=3)
    optimizer = optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)

    def lr_lbmd(cur_epoch):
        cur_decay = 1
        for decay_step in args.decay_step_list:
            if cur_epoch >= decay_step:
                cur_decay = cur_decay * args.lr_decay
        return max(cur_decay, 1e-5 / args.lr)

    lr_scheduler = lr_sched.LambdaLR(optimizer, lr_lbmd)

    best_iou = 0.0
    for epoch in range(1, args.epochs + 1):
        train_one_epoch(model, train_loader, optimizer, epoch)
        lr_scheduler.step()
        if epoch % args.eval_freq == 0:
            best_iou = max(best_iou, eval_one_epoch(model, test_loader, epoch))
    print("best mIoU", best_iou)


if __name__ == "__main__":
    main()
