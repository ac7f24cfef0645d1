import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from config import TrainConfig
from data import CactusTiles
from model import CactusNet

logger = logging.getLogger("cactus")


class Trainer:
    def __init__(self, model: CactusNet, cfg: TrainConfig):
        self.model = model
        self.cfg = cfg
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.criterion = nn.CrossEntropyLoss()
        self.step = 0

    def train_epoch(self, loader: DataLoader) -> float:
        self.model.train()
        running = 0.0
        for images, labels in loader:
            logits = self.model(images)
            loss = self.criterion(logits, labels)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            running += loss.item()
            self.step += 1
            if self.step % self.cfg.log_every == 0:
                logger.info("step %d loss %.4f", self.step, loss.item())
        return running / len(loader)

    @torch.no_grad()
    def evaluate(self, loader: DataLoader) -> float:
        self.model.eval()
        correct = total = 0
        for images, labels in loader:
            correct += (self.model(images).argmax(dim=1) == labels).sum().item()
            total += labels.numel()
        return correct / max(total, 1)


def main():
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    cfg = TrainConfig()
    torch.manual_seed(cfg.seed)
    train_ds = CactusTiles(cfg.n_train, cfg.tile, seed=cfg.seed, augment=True)
    valid_ds = CactusTiles(cfg.n_valid, cfg.tile, seed=cfg.seed + 1)
    train_loader = DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True)
    valid_loader = DataLoader(valid_ds, batch_size=cfg.batch_size)
    trainer = Trainer(CactusNet(cfg.widths, cfg.num_classes), cfg)
    for epoch in range(cfg.epochs):
        loss = trainer.train_epoch(train_loader)
        logger.info("epoch %d train loss %.4f valid acc %.3f", epoch, loss, trainer.evaluate(valid_loader))


if __name__ == "__main__":
    main()
