import logging

import torch
import torch.nn.functional as F

from .model import ContextTargetTransformer

log = logging.getLogger(__name__)


class Forecaster:
    """Training and inference around a context/target forecasting model."""

    def __init__(self, model: ContextTargetTransformer, learning_rate=1e-3, grad_clip=1.0):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=1e-4)
        self.grad_clip = grad_clip
        self.step = 0

    def training_step(self, batch):
        x_c, y_c, x_t, y_t = batch
        pred = self.model(x_c, y_c, x_t)
        loss = F.mse_loss(pred, y_t)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
        self.optimizer.step()
        self.step += 1
        return loss.item()

    def fit(self, loader, epochs):
        self.model.train()
        for epoch in range(epochs):
            losses = [self.training_step(batch) for batch in loader]
            log.info("epoch %d train_mse %.4f", epoch, sum(losses) / len(losses))

    def predict(self, x_c, y_c, x_t):
        self.model.eval()
        with torch.no_grad():
            y_hat = self.model(x_c, y_c, x_t)
        return y_hat
