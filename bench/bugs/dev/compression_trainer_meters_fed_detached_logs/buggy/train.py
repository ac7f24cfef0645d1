import argparse
import logging
from collections import defaultdict

import torch

from losses import RateDistortionLoss
from model import FactorizedPrior
from utils import AverageMeter

log = logging.getLogger("compress")


def train_one_epoch(model, criterion, loader, optimizer, epoch, clip_max_norm=1.0):
    model.train()
    meters = defaultdict(AverageMeter)
    for i, d in enumerate(loader):
        optimizer.zero_grad()
        out_net = model(d)
        out_criterion = criterion(out_net, d)
        out_criterion["loss"].backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip_max_norm)
        optimizer.step()
        for name, value in out_criterion["logs"].items():
            meters[name].update(value, d.size(0))
    log.info("epoch %d: %s", epoch, {k: round(float(m.avg), 4) for k, m in meters.items()})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lambda", dest="lmbda", type=float, default=1e-2)
    parser.add_argument("--batch-size", type=int, default=2)
    args = parser.parse_args([])
    torch.manual_seed(0)
    images = torch.rand(8, 3, 16, 16, generator=torch.Generator().manual_seed(0))
    loader = torch.utils.data.DataLoader(images, batch_size=args.batch_size, shuffle=True)
    model = FactorizedPrior()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    criterion = RateDistortionLoss(lmbda=args.lmbda)
    for epoch in range(args.epochs):
        train_one_epoch(model, criterion, loader, optimizer, epoch)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
