"""A scikit-learn style wrapper around a torch classifier, so it can sit in sklearn pipelines and CV loops."""
import logging

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger(__name__)


class PytorchEstimator:
    def __init__(self, model, loss_fn, optimizer, device="cpu", max_iter=5, batch_size=32, verbose=0):
        self.model = model
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.device = device
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.verbose = verbose

    def _loader(self, X, y=None, shuffle=False):
        X = torch.as_tensor(np.asarray(X), dtype=torch.float32)
        tensors = [X] if y is None else [X, torch.as_tensor(np.asarray(y), dtype=torch.long)]
        return DataLoader(TensorDataset(*tensors), batch_size=self.batch_size, shuffle=shuffle)

    def fit(self, X, y):
        self.model.to(self.device)
        for epoch in range(self.max_iter):
            self.model.train()
            running = 0.0
            for X_batch, y_batch in self._loader(X, y, shuffle=True):
                X_batch, y_batch = X_batch.to(self.device), y_batch.to(self.device)
                self.optimizer.zero_grad()
                loss = self.loss_fn(self.model(X_batch), y_batch)
                loss.backward()
                self.optimizer.step()
                running += loss.item() * len(X_batch)
            if self.verbose:
                logger.info("epoch %d loss %.4f", epoch, running / len(X))
        return self

    def predict_proba(self, X):
        self.model.eval()
        probas = []
        for (X_batch,) in self._loader(X):
            X_batch = X_batch.to(self.device)
            logits = self.model(X_batch)
            probas.append(F.softmax(logits, dim=1))
        return torch.cat(probas).cpu().numpy()

    def predict(self, X):
        return np.argmax(self.predict_proba(X), axis=1)
