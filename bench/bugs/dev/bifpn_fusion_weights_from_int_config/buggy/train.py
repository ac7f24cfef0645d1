import logging

import torch
import torch.nn.functional as F

from config import TrainConfig
from model import TinyDetectorNeck

log = logging.getLogger("neck")


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = TrainConfig()
    model = TinyDetectorNeck(cfg, cfg.num_classes)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        images = torch.randn(cfg.batch_size, 3, 32, 32)
        target = torch.randint(0, cfg.num_classes, (cfg.batch_size, 16, 16))
        loss = F.cross_entropy(model(images), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        log.info("step %d loss %.3f fusion %s", step, loss.item(), model.fuse.weights.detach().tolist())


if __name__ == "__main__":
    main()
