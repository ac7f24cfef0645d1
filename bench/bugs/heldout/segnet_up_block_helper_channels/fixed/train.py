import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import SyntheticBlobs
from model import SegNet


class Trainer:
    def __init__(self, model: SegNet, lr: float):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def train_epoch(self, loader: DataLoader) -> float:
        self.model.train()
        running = 0.0
        for images, masks in loader:
            logits = self.model(images)
            loss = self.criterion(logits, masks)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            running += loss.item()
        return running / len(loader)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch-size", type=int, default=2)
    args = parser.parse_args([])
    torch.manual_seed(0)
    loader = DataLoader(SyntheticBlobs(), batch_size=args.batch_size, shuffle=True)
    trainer = Trainer(SegNet(), args.lr)
    for epoch in range(args.epochs):
        print(f"epoch {epoch} loss {trainer.train_epoch(loader):.4f}")


if __name__ == "__main__":
    main()
