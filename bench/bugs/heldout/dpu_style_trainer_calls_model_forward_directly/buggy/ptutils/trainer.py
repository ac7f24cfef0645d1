import logging
import math

import torch

from .basemodel import BaseComponent

log = logging.getLogger("ptutils")


class ModelTrainer:
    def __init__(self, model: BaseComponent, lr=1e-3, clip_norm=1.0):
        self.model = model
        self.clip_norm = clip_norm
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def _run_epoch(self, minibatches, is_train):
        self.model.train(is_train)
        total, n = 0.0, 0
        with torch.set_grad_enabled(is_train):
            for minibatch in minibatches:
                if is_train:
                    self.optimizer.zero_grad()
                loss = self.model.forward(*minibatch)
                if is_train:
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_norm)
                    self.optimizer.step()
                total += loss.item()
                n += 1
        return total / max(n, 1)

    def train(self, train_data, valid_data, max_epochs=2):
        best = math.inf
        for epoch in range(max_epochs):
            train_loss = self._run_epoch(train_data, is_train=True)
            valid_loss = self._run_epoch(valid_data, is_train=False)
            best = min(best, valid_loss)
            log.info("[%s] epoch %d train %.4f valid %.4f", self.model.name, epoch, train_loss, valid_loss)
        return best
