import torch
import torch.nn as nn

from model import PriceLSTM


class Trainer:
    def __init__(self, model: PriceLSTM, lr: float, logger):
        self.model = model
        self.criterion = nn.MSELoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.log = logger
        self.history = {"train": [], "valid": []}

    def train_epoch(self, loader) -> float:
        self.model.train()
        total = 0.0
        for xb, yb in loader:
            pred = self.model(xb)
            loss = self.criterion(pred, yb)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item() * len(xb)
        return total / len(loader.dataset)

    @torch.no_grad()
    def validate(self, loader) -> float:
        self.model.eval()
        total = sum(self.criterion(self.model(xb), yb).item() * len(xb) for xb, yb in loader)
        return total / len(loader.dataset)

    def fit(self, train_loader, valid_loader, epochs: int):
        for epoch in range(epochs):
            tr, va = self.train_epoch(train_loader), self.validate(valid_loader)
            self.history["train"].append(tr)
            self.history["valid"].append(va)
            self.log.info("epoch %02d train %.5f valid %.5f", epoch, tr, va)
        return self.history
