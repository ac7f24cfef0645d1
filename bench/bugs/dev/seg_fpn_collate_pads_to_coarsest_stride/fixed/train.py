import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from segfpn.data import IGNORE_INDEX, RandomCropScenes, collate_padded
from segfpn.net import SemanticFPN

log = logging.getLogger("segfpn")


def build_parser():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crop", type=int, default=200)
    ap.add_argument("--classes", type=int, default=5)
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--bs", type=int, default=2)
    ap.add_argument("--iters", type=int, default=4)
    ap.add_argument("--lr", type=float, default=0.01)
    return ap


def train(net: SemanticFPN, loader, iters, lr):
    criterion = nn.CrossEntropyLoss(ignore_index=IGNORE_INDEX)
    optim = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9)
    it = 0
    net.train()
    while it < iters:
        for images, masks in loader:
            logits = net(images)
            loss = criterion(logits, masks)
            optim.zero_grad()
            loss.backward()
            optim.step()
            it += 1
            log.info("iter %d loss %.4f", it, loss.item())
            if it >= iters:
                break


def main(argv=None):
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    data = RandomCropScenes(args.n, args.crop, args.classes)
    loader = DataLoader(data, batch_size=args.bs, shuffle=True, collate_fn=collate_padded)
    train(SemanticFPN(args.classes), loader, args.iters, args.lr)


if __name__ == "__main__":
    main()
