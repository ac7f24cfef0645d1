import logging

import torch
import torch.nn as nn

from metrics import RocAucMeter
from model import FraudScorer

log = logging.getLogger(__name__)


class FraudTrainer:
    def __init__(self, model: FraudScorer, lr: float, pos_weight: float):
        self.model = model
        self.criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(pos_weight))
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.train_auc = RocAucMeter()

    def train_epoch(self, loader, epoch):
        self.model.train()
        self.train_auc.reset()
        total = 0.0
        for x, y in loader:
            logits, probs = self.model.score(x)
            loss = self.criterion(logits, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item() * len(y)
            self.train_auc.update(probs.detach(), y)
        log.info("epoch %d loss %.4f auc %.3f", epoch, total / len(loader.dataset), self.train_auc.compute())
