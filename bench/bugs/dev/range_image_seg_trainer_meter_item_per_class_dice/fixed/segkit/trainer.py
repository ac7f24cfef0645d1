import logging
from collections import defaultdict

import torch
import torch.nn as nn

from segkit.losses import soft_dice_per_class
from segkit.model import RangeNet

logger = logging.getLogger(__name__)


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value: float, n: int = 1):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class SegTrainer:
    def __init__(self, model: RangeNet, lr: float = 1e-3, dice_weight: float = 1.0):
        self.model = model
        self.ce = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.dice_weight = dice_weight
        self.meters = defaultdict(AverageMeter)

    def train_epoch(self, loader, epoch: int):
        self.model.train()
        for step, (scans, labels) in enumerate(loader):
            logits = self.model(scans)
            loss_ce = self.ce(logits, labels)
            loss_dice = soft_dice_per_class(logits, labels)
            loss = loss_ce + self.dice_weight * loss_dice.mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

            n = scans.size(0)
            self.meters["loss"].update(loss.item(), n)
            self.meters["ce"].update(loss_ce.item(), n)
            self.meters["dice"].update(loss_dice.mean().item(), n)
        logger.info("epoch %d " + " ".join(f"{k} %.4f" for k in self.meters), epoch,
                    *[m.avg for m in self.meters.values()])
