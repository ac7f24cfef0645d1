import torch
import torch.nn as nn

from config import EPOCHS, FINDINGS, LR
from data import build_loader
from model import DenseishNet


class Trainer:
    def __init__(self) -> None:
        self.model: DenseishNet = DenseishNet(num_classes=len(FINDINGS))
        self.criterion = nn.BCEWithLogitsLoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=LR, betas=(0.9, 0.999))
        self.loader = build_loader()

    def train_epoch(self, epoch: int) -> float:
        self.model.train()
        running = 0.0
        for images, targets in self.loader:
            outputs = self.model(images)
            loss = self.criterion(outputs, targets)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: mean loss {running / len(self.loader):.4f}")
        return running


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer()
    for epoch in range(EPOCHS):
        trainer.train_epoch(epoch)
