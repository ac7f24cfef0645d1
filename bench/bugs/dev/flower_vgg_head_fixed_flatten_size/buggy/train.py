import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from model import SmallVGG


class Config:
    image_size = 100
    batch_size = 4
    epochs = 1
    lr = 1e-3


def make_loader(cfg: Config) -> DataLoader:
    images = torch.rand(16, 3, cfg.image_size, cfg.image_size)
    labels = torch.randint(0, 5, (16,))
    return DataLoader(TensorDataset(images, labels), batch_size=cfg.batch_size, shuffle=True)


class Trainer:
    def __init__(self, model: SmallVGG, cfg: Config):
        self.model = model
        self.cfg = cfg
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(model.classifier.parameters(), lr=cfg.lr)

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for images, labels in loader:
            self.optimizer.zero_grad()
            logits = self.model(images)
            loss = self.criterion(logits, labels)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(loader)

    def fit(self, loader):
        for epoch in range(self.cfg.epochs):
            print(f"epoch {epoch}: loss {self.train_epoch(loader):.4f}")


def main():
    torch.manual_seed(0)
    cfg = Config()
    trainer = Trainer(SmallVGG(), cfg)
    trainer.fit(make_loader(cfg))


if __name__ == "__main__":
    main()
