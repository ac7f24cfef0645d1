import logging

import torch
import torch.nn as nn

from model import ShallowNet

logger = logging.getLogger(__name__)


class FullBatchTrainer:
    def __init__(self, model: ShallowNet, learning_rate: float = 1.2):
        self.model = model
        self.loss_fn = nn.BCEWithLogitsLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
        self.costs = []

    def fit(self, X, Y, num_iterations: int = 100, print_every: int = 25):
        for i in range(num_iterations):
            logits = self.model(X)
            cost = self.loss_fn(logits, Y)
            self.optimizer.zero_grad()
            cost.backward()
            self.optimizer.step()
            if i % print_every == 0:
                self.costs.append(cost.item())
                logger.info("cost after iteration %d: %.6f", i, cost.item())
        return self.costs

    @torch.no_grad()
    def predict(self, X):
        return (self.model(X) > 0).float()
