import torch
import torch.nn as nn

from config import BACKBONE, NET, TRAIN
from data import build_loader
from model import DefectNet


def train_one_epoch(model: DefectNet, loader, optimizer, criterion):
    model.train()
    running = 0.0
    for images, targets in loader:
        outputs = model(images)
        loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / len(loader)


def main():
    torch.manual_seed(0)
    model = DefectNet(BACKBONE, NET)
    loader = build_loader(NET, TRAIN["batch_size"])
    optimizer = torch.optim.SGD(model.parameters(), lr=TRAIN["lr"], momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(TRAIN["epochs"]):
        print(f"epoch {epoch} loss {train_one_epoch(model, loader, optimizer, criterion):.4f}")


if __name__ == "__main__":
    main()
