import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset

from data import SENSORS, SensorWindows, simulate
from model import ConvLSTMDetector

log = logging.getLogger("pump")

WINDOW = 32
BATCH_SIZE = 16
EPOCHS = 3


class FaultTrainer:
    def __init__(self, model: ConvLSTMDetector, lr: float = 2e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.loss_fn = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 3.0]))

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for windows, labels in loader:
            logits = self.model(windows)
            loss = self.loss_fn(logits, labels)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(loader)

    @torch.no_grad()
    def recall(self, loader):
        self.model.eval()
        tp = fn = 0
        for windows, labels in loader:
            pred = self.model(windows).argmax(1)
            tp += ((pred == 1) & (labels == 1)).sum().item()
            fn += ((pred == 0) & (labels == 1)).sum().item()
        return tp / max(tp + fn, 1)


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    readings, faults = simulate(600)
    dataset = SensorWindows(readings, faults, window=WINDOW)
    cut = int(0.8 * len(dataset))
    train_loader = DataLoader(Subset(dataset, range(cut)), batch_size=BATCH_SIZE, shuffle=True)
    test_loader = DataLoader(Subset(dataset, range(cut, len(dataset))), batch_size=BATCH_SIZE)
    trainer = FaultTrainer(ConvLSTMDetector(n_sensors=len(SENSORS)))
    for epoch in range(EPOCHS):
        loss = trainer.train_epoch(train_loader)
        log.info("epoch %d loss %.4f fault recall %.3f", epoch, loss, trainer.recall(test_loader))


if __name__ == "__main__":
    main()
