import argparse
import logging

import torch
from torch.utils.data import DataLoader, Dataset

from engine.hooks import IterationTimer, LRScheduler, PeriodicWriter
from engine.train_loop import SimpleTrainer
from modeling import TinyDetector


class ShapesDataset(Dataset):
    def __init__(self, n=16, size=32, num_classes=3, seed=0):
        g = torch.Generator().manual_seed(seed)
        grid = size // 4
        self.images = 0.1 * torch.randn(n, 3, size, size, generator=g)
        self.obj = torch.zeros(n, grid, grid)
        self.labels = torch.zeros(n, grid, grid, dtype=torch.long)
        for i in range(n):
            r, c = torch.randint(0, grid, (2,), generator=g).tolist()
            k = int(torch.randint(0, num_classes, (1,), generator=g))
            self.images[i, k, 4 * r:4 * r + 4, 4 * c:4 * c + 4] += 1.0
            self.obj[i, r, c] = 1.0
            self.labels[i, r, c] = k

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], {"objectness": self.obj[i], "labels": self.labels[i]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-iter", type=int, default=10)
    parser.add_argument("--base-lr", type=float, default=0.02)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = TinyDetector()
    loader = DataLoader(ShapesDataset(), batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
    optimizer = torch.optim.SGD(model.parameters(), lr=args.base_lr, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[6, 8], gamma=0.1)
    trainer = SimpleTrainer(model, loader, optimizer)
    trainer.register_hooks([IterationTimer(), LRScheduler(optimizer, scheduler), PeriodicWriter()])
    trainer.train(0, args.max_iter)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
