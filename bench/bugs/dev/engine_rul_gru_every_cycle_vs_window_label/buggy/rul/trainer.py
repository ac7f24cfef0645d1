import logging
import math

import torch
import torch.nn as nn

from rul.model import GRURegressor

logger = logging.getLogger(__name__)


class RULTrainer:
    def __init__(self, model: GRURegressor, lr: float = 1e-3, weight_decay: float = 0.0):
        self.model = model
        self.criterion = nn.MSELoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
        self.best = math.inf

    def fit_epoch(self, loader):
        self.model.train()
        running = 0.0
        for windows, rul in loader:
            preds = self.model(windows)
            loss = self.criterion(preds, rul)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            running += loss.item() * len(windows)
        epoch_loss = running / len(loader.dataset)
        self.best = min(self.best, epoch_loss)
        return epoch_loss
