import logging
from typing import Optional

import torch
from torch import nn
from torch.utils.data import DataLoader

from core.convlstm import Seq2SeqConvLSTM

logger = logging.getLogger(__name__)


class Trainer:
    def __init__(
        self,
        model: Seq2SeqConvLSTM,
        train_loader: DataLoader,
        valid_loader: DataLoader,
        epochs: int = 2,
        lr: float = 1e-3,
        device: Optional[str] = None,
    ):
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.model = model.to(self.device)
        self.train_loader = train_loader
        self.valid_loader = valid_loader
        self.epochs = epochs
        self.loss_fn = nn.BCELoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.history = {"train": [], "valid": []}

    def train_epoch(self) -> float:
        self.model.train()
        total = 0.0
        for inputs, targets in self.train_loader:
            inputs, targets = inputs.to(self.device), targets.to(self.device)
            self.optimizer.zero_grad()
            loss = self.loss_fn(self.model(inputs), targets)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(self.train_loader)

    @torch.no_grad()
    def validate(self) -> float:
        self.model.eval()
        total = 0.0
        for inputs, targets in self.valid_loader:
            preds = self.model(inputs)
            total += self.loss_fn(preds, targets.to(self.device)).item()
        return total / len(self.valid_loader)

    def run(self):
        for epoch in range(self.epochs):
            train_loss = self.train_epoch()
            valid_loss = self.validate()
            self.history["train"].append(train_loss)
            self.history["valid"].append(valid_loss)
            logger.info("epoch %d train %.4f valid %.4f", epoch, train_loss, valid_loss)
        return self.history
