import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

from engine.callbacks import LossMeter, LRSchedulerCallback
from engine.loop import TrainLoop
from models import TinyBinaryNet


def main():
    parser = argparse.ArgumentParser("binary net, step 1")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--learning_rate", type=float, default=5e-4)
    parser.add_argument("--batch_size", type=int, default=16)
    args = parser.parse_args([])
    torch.manual_seed(0)

    images = torch.randn(64, 3, 16, 16)
    labels = torch.randint(0, 10, (64,))
    loader = DataLoader(TensorDataset(images, labels), batch_size=args.batch_size, shuffle=True)
    model = TinyBinaryNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 - step / args.epochs)
    loop = TrainLoop(model, optimizer, loader, callbacks=[LRSchedulerCallback(scheduler), LossMeter()])
    loop.fit(args.epochs)


if __name__ == "__main__":
    main()
