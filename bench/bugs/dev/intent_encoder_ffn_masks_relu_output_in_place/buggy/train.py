import argparse
import logging

import torch
import torch.nn.functional as F

from config import ModelConfig, TrainConfig
from data import make_loader
from model import IntentClassifier

logger = logging.getLogger("intent")


def run_epoch(model, loader, optimizer):
    model.train()
    total, correct, seen = 0.0, 0, 0
    for input_ids, labels in loader:
        logits = model(input_ids)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        total += loss.item() * len(labels)
        correct += (logits.argmax(-1) == labels).sum().item()
        seen += len(labels)
    return total / seen, correct / seen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=None)
    args = parser.parse_args([])
    logging.basicConfig(level=logging.INFO)

    mcfg, tcfg = ModelConfig(), TrainConfig()
    if args.epochs:
        tcfg.epochs = args.epochs
    torch.manual_seed(tcfg.seed)

    model = IntentClassifier(mcfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=tcfg.lr)
    loader = make_loader(mcfg, tcfg.batch_size, seed=tcfg.seed)
    for epoch in range(tcfg.epochs):
        loss, acc = run_epoch(model, loader, optimizer)
        logger.info("epoch %d loss %.4f acc %.3f", epoch, loss, acc)


if __name__ == "__main__":
    main()
