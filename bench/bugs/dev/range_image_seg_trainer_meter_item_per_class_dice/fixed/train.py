import argparse
import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from segkit.model import RangeNet
from segkit.trainer import SegTrainer


def synthetic_scans(n: int, n_classes: int, h: int = 16, w: int = 32, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    rng = torch.rand(n, 1, h, w, generator=g) * 50.0
    intensity = torch.rand(n, 1, h, w, generator=g)
    bins = torch.linspace(0, 50, n_classes + 1)[1:-1]
    labels = torch.bucketize(rng[:, 0], bins)
    return torch.cat([rng / 50.0, intensity], dim=1), labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--dice-weight", type=float, default=0.5)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)

    scans, labels = synthetic_scans(16, args.classes)
    loader = DataLoader(TensorDataset(scans, labels), batch_size=args.batch_size, shuffle=True)
    trainer = SegTrainer(RangeNet(n_classes=args.classes), lr=1e-2, dice_weight=args.dice_weight)
    for epoch in range(args.epochs):
        trainer.train_epoch(loader, epoch)


if __name__ == "__main__":
    main()
