import torch
import torch.nn as nn

from config import ExperimentConfig
from data import make_loader
from model import SketchNet


class Trainer:
    def __init__(self, model: SketchNet, cfg: ExperimentConfig):
        self.model = model
        self.cfg = cfg
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    def fit(self, loader):
        for epoch in range(self.cfg.epochs):
            self.model.train()
            correct, seen = 0, 0
            for images, labels in loader:
                logits = self.model(images)
                loss = self.criterion(logits, labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                correct += (logits.argmax(1) == labels).sum().item()
                seen += labels.numel()
            print(f"epoch {epoch}: loss {loss.item():.3f} acc {correct / seen:.2f}")


def build_model(cfg: ExperimentConfig) -> SketchNet:
    return SketchNet(in_channels=cfg.data.channels, img_size=cfg.data.img_size,
                     width=cfg.width, num_classes=cfg.num_classes)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = ExperimentConfig()
    trainer = Trainer(build_model(cfg), cfg)
    trainer.fit(make_loader(cfg.data, cfg.num_classes, cfg.batch_size))
