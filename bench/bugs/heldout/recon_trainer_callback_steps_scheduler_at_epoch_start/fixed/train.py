import argparse

import torch
import torch.nn as nn

from callbacks import LossLogger, LRSchedulerCallback
from trainer import Trainer


def build_model(channels=8):
    return nn.Sequential(
        nn.Conv3d(1, channels, 3, padding=1), nn.ReLU(),
        nn.Conv3d(channels, channels, 3, padding=1), nn.ReLU(),
        nn.Conv3d(channels, 1, 1), nn.Tanh(),
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--lrepochs", type=str, default="1,2:2")
    args = parser.parse_args([])
    torch.manual_seed(0)

    model = build_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.999))
    milestones = [int(e) for e in args.lrepochs.split(":")[0].split(",")]
    gamma = 1 / float(args.lrepochs.split(":")[1])
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=milestones, gamma=gamma)
    loader = [(torch.randn(2, 1, 8, 8, 8), torch.rand(2, 1, 8, 8, 8) * 2 - 1) for _ in range(3)]
    Trainer(model, optimizer, callbacks=[LRSchedulerCallback(scheduler), LossLogger()]).fit(loader)


if __name__ == "__main__":
    main()
