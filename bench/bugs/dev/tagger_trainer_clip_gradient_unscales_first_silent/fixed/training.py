import logging
from typing import Optional

import torch
from torch import nn

logger = logging.getLogger(__name__)


def rescale_gradients(model: nn.Module, grad_norm: Optional[float] = None) -> Optional[float]:
    if grad_norm is None:
        return None
    params = [p for p in model.parameters() if p.grad is not None]
    return torch.nn.utils.clip_grad_norm_(params, grad_norm).item()


class GradientDescentTrainer:
    def __init__(self, model, optimizer, data_loader, num_epochs=2, grad_norm=1.0, use_amp=False):
        self.model = model
        self.optimizer = optimizer
        self.data_loader = data_loader
        self.num_epochs = num_epochs
        self._grad_norm = grad_norm
        self._scaler = torch.amp.GradScaler("cpu") if use_amp else None
        self._use_amp = use_amp

    def clip_gradient(self) -> Optional[float]:
        if self._grad_norm is not None and self._scaler is not None:
            self._scaler.unscale_(self.optimizer)
        return rescale_gradients(self.model, self._grad_norm)

    def _train_epoch(self, epoch):
        self.model.train()
        total, norms = 0.0, []
        for tokens, tags in self.data_loader:
            self.optimizer.zero_grad()
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self._use_amp):
                output = self.model(tokens, tags)
            loss = output["loss"]
            if self._scaler is not None:
                self._scaler.scale(loss).backward()
            else:
                loss.backward()
            norm = self.clip_gradient()
            if norm is not None:
                norms.append(norm)
            if self._scaler is not None:
                self._scaler.step(self.optimizer)
                self._scaler.update()
            else:
                self.optimizer.step()
            total += loss.item()
        logger.info("epoch %d loss %.4f mean grad norm %.3f", epoch, total / len(self.data_loader),
                    sum(norms) / max(len(norms), 1))
        return total / len(self.data_loader)

    def train(self):
        return [self._train_epoch(epoch) for epoch in range(self.num_epochs)]
