import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from config import Config
from data import SyntheticPatches
from model import PatchClassifier

log = logging.getLogger("histo")


def train_one_epoch(model: PatchClassifier, loader, optimizer, criterion) -> float:
    model.train()
    total = 0.0
    for patches, labels in loader:
        optimizer.zero_grad()
        loss = criterion(model(patches), labels)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


@torch.no_grad()
def validate(model: PatchClassifier, loader) -> float:
    model.eval()
    hits = sum((model(x).argmax(1) == y).sum().item() for x, y in loader)
    return hits / len(loader.dataset)


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = Config()
    train_loader = DataLoader(SyntheticPatches(cfg.data, cfg.data.n_train), batch_size=cfg.batch_size, shuffle=True)
    valid_loader = DataLoader(SyntheticPatches(cfg.data, cfg.data.n_valid, seed=1), batch_size=cfg.batch_size)
    model = PatchClassifier(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(cfg.epochs):
        loss = train_one_epoch(model, train_loader, optimizer, criterion)
        log.info("epoch %d loss %.4f val acc %.3f", epoch, loss, validate(model, valid_loader))


if __name__ == "__main__":
    main()
