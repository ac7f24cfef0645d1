import argparse
import logging

import torch
from torch.utils.data import DataLoader

from data import LeafFeatures
from model import LeafNet

log = logging.getLogger("leaf")


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--lr", type=float, default=1e-2)
    return p.parse_args([])


def main():
    args = parse_args()
    torch.manual_seed(0)
    ds = LeafFeatures()
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True)
    model = LeafNet(n_classes=ds.n_classes)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for epoch in range(args.epochs):
        model.train()
        seen, correct = 0, 0
        for x, y in loader:
            logits = model(x)
            loss = model.head.loss(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            seen += x.size(0)
        log.info("epoch %d done, %d rows", epoch, seen)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
