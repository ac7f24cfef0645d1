import argparse
import logging

import torch
from torch.utils.data import DataLoader

from lanedet.datasets import SyntheticLanes
from lanedet.models import LaneSegDetector

log = logging.getLogger("lanedet")


class Runner:
    def __init__(self, net, loader, lr):
        self.net = net
        self.loader = loader
        self.optimizer = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)

    def train_epoch(self, epoch):
        self.net.train()
        for i, batch in enumerate(self.loader):
            output = self.net(batch["img"])
            loss, stats = self.net.loss(output, batch)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if i % 2 == 0:
                log.info("epoch %d iter %d loss %.4f %s", epoch, i, loss.item(), stats)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.01)
    args = parser.parse_args([])
    torch.manual_seed(0)
    loader = DataLoader(SyntheticLanes(), batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
    runner = Runner(LaneSegDetector(), loader, args.lr)
    for epoch in range(args.epochs):
        runner.train_epoch(epoch)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
