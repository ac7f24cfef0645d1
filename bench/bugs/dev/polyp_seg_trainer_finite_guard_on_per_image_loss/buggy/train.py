import argparse
import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from polyp.net import TinyUNet
from polyp.trainer import Trainer


def blobs(n: int, size: int = 32, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    images, masks = [], []
    for _ in range(n):
        cy, cx = torch.randint(8, size - 8, (2,), generator=g)
        r = torch.randint(3, 7, (1,), generator=g)
        mask = (((yy - cy) ** 2 + (xx - cx) ** 2) <= r ** 2).float()[None]
        image = torch.cat([mask * 0.6, mask * 0.3, 1 - mask * 0.5]) + 0.2 * torch.randn(3, size, size, generator=g)
        images.append(image)
        masks.append(mask)
    return torch.stack(images), torch.stack(masks)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)

    images, masks = blobs(16)
    loader = DataLoader(TensorDataset(images, masks), batch_size=args.batch_size, shuffle=True)
    model = TinyUNet()
    trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=args.lr))
    for epoch in range(args.epochs):
        trainer.run_epoch(loader, epoch)
    logging.info("skipped %d steps", trainer.skipped)


if __name__ == "__main__":
    main()
