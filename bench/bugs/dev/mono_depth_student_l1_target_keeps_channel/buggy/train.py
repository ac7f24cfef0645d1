import argparse
import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from config import TrainConfig
from data import PseudoDepthDataset
from model import DepthNet

logger = logging.getLogger("depth")


def abs_rel(pred, target):
    return ((pred - target).abs() / target.clamp(min=1e-3)).mean()


def train_one_epoch(model: DepthNet, loader, optimizer, epoch: int, cfg: TrainConfig):
    model.train()
    for step, (frames, depth) in enumerate(loader):
        pred = model(frames)
        loss = F.l1_loss(pred, depth)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % cfg.log_every == 0:
            logger.info("epoch %d step %d l1 %.4f", epoch, step, loss.item())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    cfg = TrainConfig()
    if args.epochs:
        cfg.epochs = args.epochs
    torch.manual_seed(cfg.seed)

    dataset = PseudoDepthDataset(size=cfg.image_size)
    loader = DataLoader(dataset, batch_size=cfg.batch_size, shuffle=True)
    model = DepthNet(cfg.width)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        train_one_epoch(model, loader, optimizer, epoch, cfg)
    logger.info("done, %d frames", len(dataset))


if __name__ == "__main__":
    main()
