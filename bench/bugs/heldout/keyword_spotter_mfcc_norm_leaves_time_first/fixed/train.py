import argparse
import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import SpeechCommands
from model import KWSNet

logger = logging.getLogger("kws")


def run_epoch(model: KWSNet, loader, optimizer) -> float:
    model.train()
    total, n = 0.0, 0
    for feats, labels in loader:
        logits = model(feats)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * labels.numel()
        n += labels.numel()
    return total / n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    loader = DataLoader(SpeechCommands(), batch_size=args.batch_size, shuffle=True)
    model = KWSNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        logger.info("epoch %d loss %.4f", epoch, run_epoch(model, loader, optimizer))


if __name__ == "__main__":
    main()
