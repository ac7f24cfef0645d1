import logging
import time

import numpy as np
import torch
import torch.nn as nn

from molkit.data import NumpyDataset
from molkit.losses import Loss

logger = logging.getLogger(__name__)


class MultitaskClassifier(nn.Module):
    def __init__(self, n_features: int, n_classes: int, layer_sizes=(64, 32), dropout: float = 0.1):
        super().__init__()
        layers, prev = [], n_features
        for size in layer_sizes:
            layers += [nn.Linear(prev, size), nn.ReLU(), nn.Dropout(dropout)]
            prev = size
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(prev, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


class TorchModel:
    """Wraps an nn.Module with a loss object and the fit loop."""

    def __init__(self, model: nn.Module, loss: Loss, batch_size: int = 16, learning_rate: float = 1e-3):
        self.model = model
        self.loss = loss
        self.batch_size = batch_size
        self.optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
        self._loss_fn = loss._create_pytorch_loss()
        self._global_step = 0

    def _prepare_batch(self, X, y, w):
        return torch.as_tensor(X), torch.as_tensor(y), torch.as_tensor(w)

    def fit(self, dataset: NumpyDataset, nb_epoch: int = 1, log_every: int = 5):
        rng = np.random.default_rng(123)
        start = time.time()
        avg_loss, n_avg = 0.0, 0
        self.model.train()
        for epoch in range(nb_epoch):
            for X, y, w, _ in dataset.iterbatches(self.batch_size, rng=rng):
                inputs, labels, weights = self._prepare_batch(X, y, w)
                outputs = self.model(inputs)
                batch_loss = self._loss_fn(outputs, labels)
                batch_loss = (batch_loss * weights.squeeze(-1)).mean()
                self.optimizer.zero_grad()
                batch_loss.backward()
                self.optimizer.step()
                avg_loss += batch_loss.item()
                n_avg += 1
                self._global_step += 1
                if self._global_step % log_every == 0:
                    logger.info("step %d loss %.4f", self._global_step, avg_loss / n_avg)
                    avg_loss, n_avg = 0.0, 0
        logger.info("fit took %.1fs", time.time() - start)
        return avg_loss / max(n_avg, 1)
