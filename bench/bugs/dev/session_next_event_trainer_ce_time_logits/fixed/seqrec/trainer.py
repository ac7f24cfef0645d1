import logging

import torch
import torch.nn as nn

from seqrec.model import NextEventGRU

logger = logging.getLogger(__name__)


class Trainer:
    def __init__(self, model: NextEventGRU, loader, lr: float, clip: float, log_interval: int = 10):
        self.model = model
        self.loader = loader
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.clip = clip
        self.log_interval = log_interval
        self.history = []

    def train_epoch(self, epoch: int):
        self.model.train()
        total, n = 0.0, 0
        for step, (events, targets) in enumerate(self.loader):
            logits = self.model(events)
            loss = self.criterion(logits.transpose(1, 2), targets)
            self.optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
            self.optimizer.step()
            total += loss.item()
            n += 1
            if step % self.log_interval == 0:
                logger.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
        self.history.append(total / max(n, 1))
        return self.history[-1]
