import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, random_split

from config import EncoderConfig
from data import ACTIVITIES, InertialWindows
from model import HARClassifier

logger = logging.getLogger("har")


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--window", type=int, default=100, help="samples per window (2 s at 50 Hz)")
    parser.add_argument("--n-windows", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    return parser.parse_args()


def fit(model: HARClassifier, loader: DataLoader, optimizer: torch.optim.Optimizer, criterion: nn.Module) -> float:
    model.train()
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        logits = model(xb)
        loss = criterion(logits, yb)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


@torch.no_grad()
def accuracy(model: HARClassifier, loader: DataLoader) -> float:
    model.eval()
    hits = n = 0
    for xb, yb in loader:
        hits += (model(xb).argmax(-1) == yb).sum().item()
        n += len(yb)
    return hits / n


def main():
    args = get_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    dataset = InertialWindows(args.n_windows, args.window)
    train_set, test_set = random_split(dataset, [48, 16], generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True)
    test_loader = DataLoader(test_set, batch_size=args.batch_size)
    cfg = EncoderConfig(in_channels=dataset.n_channels, window=args.window)
    model = HARClassifier(cfg, n_classes=len(ACTIVITIES))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        loss = fit(model, train_loader, optimizer, criterion)
        logger.info("epoch %d loss %.4f test acc %.3f", epoch, loss, accuracy(model, test_loader))


if __name__ == "__main__":
    main()
