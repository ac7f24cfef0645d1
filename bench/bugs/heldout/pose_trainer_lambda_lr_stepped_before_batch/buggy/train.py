import argparse
import logging

import torch

from posenet.network import CompositeField
from posenet.trainer import Trainer


def cli():
    parser = argparse.ArgumentParser(prog="python -m posenet.train")
    parser.add_argument("--epochs", default=2, type=int)
    parser.add_argument("--lr", default=1e-3, type=float)
    parser.add_argument("--lr-warm-up-epochs", default=1, type=float)
    parser.add_argument("--batch-size", default=2, type=int)
    return parser.parse_args([])


def synthetic_scenes(n_batches, batch_size, generator):
    scenes = []
    for _ in range(n_batches):
        data = torch.rand(batch_size, 3, 32, 32, generator=generator)
        conf_t = (torch.rand(batch_size, 17, 16, 16, generator=generator) > 0.9).float()
        reg_t = torch.randn(batch_size, 34, 16, 16, generator=generator)
        scenes.append((data, (conf_t, reg_t)))
    return scenes


def main():
    args = cli()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    model = CompositeField()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True)
    scenes = synthetic_scenes(3, args.batch_size, torch.Generator().manual_seed(0))
    warm_up = args.lr_warm_up_epochs * len(scenes)
    lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda it: min(1.0, (it + 1) / warm_up))
    trainer = Trainer(model, optimizer, lr_scheduler)
    trainer.loop(scenes, args.epochs)


if __name__ == "__main__":
    main()
