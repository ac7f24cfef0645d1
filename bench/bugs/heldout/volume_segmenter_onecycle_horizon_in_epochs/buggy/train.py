import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

from config import TrainConfig
from schedulers import build_scheduler

log = logging.getLogger("ink")


def make_model():
    return nn.Sequential(
        nn.Conv3d(1, 8, 3, padding=1), nn.InstanceNorm3d(8), nn.LeakyReLU(), nn.Conv3d(8, 1, 1)
    )


def random_patches(cfg, g):
    for _ in range(cfg.steps_per_epoch):
        vol = torch.randn(cfg.batch_size, 1, cfg.patch, cfg.patch, cfg.patch, generator=g)
        yield vol, (vol > 0.5).float()


def main():
    cfg = TrainConfig()
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = make_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    scheduler = build_scheduler(optimizer, cfg)
    for epoch in range(cfg.max_epoch):
        model.train()
        for it, (vol, ink) in enumerate(random_patches(cfg, g)):
            optimizer.zero_grad()
            loss = F.binary_cross_entropy_with_logits(model(vol), ink)
            loss.backward()
            optimizer.step()
            scheduler.step()
        log.info("epoch %d lr %.2e loss %.4f", epoch, scheduler.get_last_lr()[0], loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
