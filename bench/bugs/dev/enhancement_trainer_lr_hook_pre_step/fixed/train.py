import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from hooks import LossLoggerHook, LRSchedulerHook
from model import MaskEstimator
from trainer import Trainer


def synthetic_pairs(n=32, frames=20, n_freq=33):
    clean = torch.rand(n, frames, n_freq)
    noisy = clean + 0.3 * torch.rand(n, frames, n_freq)
    return TensorDataset(noisy, clean)


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    loader = DataLoader(synthetic_pairs(), batch_size=8, shuffle=True)
    model = MaskEstimator()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    trainer = Trainer(model, optimizer, torch.nn.MSELoss(),
                      hooks=[LRSchedulerHook(scheduler), LossLoggerHook(every=4)])
    trainer.train(loader, epochs=3)


if __name__ == "__main__":
    main()
