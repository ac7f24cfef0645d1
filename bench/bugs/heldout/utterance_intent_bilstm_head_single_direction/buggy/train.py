import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from config import TrainConfig
from model import IntentClassifier

log = logging.getLogger("intent")


def synthetic_utterances(cfg: TrainConfig):
    g = torch.Generator().manual_seed(0)
    tokens = torch.randint(1, cfg.model.vocab_size, (cfg.n_utterances, cfg.seq_len), generator=g)
    intents = torch.randint(0, cfg.model.num_intents, (cfg.n_utterances,), generator=g)
    return TensorDataset(tokens, intents)


class Trainer:
    def __init__(self, model: IntentClassifier, cfg: TrainConfig):
        self.model = model
        self.cfg = cfg
        self.opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
        self.criterion = nn.CrossEntropyLoss()

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for tokens, intents in loader:
            self.opt.zero_grad()
            logits = self.model(tokens)
            loss = self.criterion(logits, intents)
            loss.backward()
            self.opt.step()
            total += loss.item()
        return total / len(loader)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=None)
    args = parser.parse_args([])
    cfg = TrainConfig()
    if args.epochs:
        cfg.epochs = args.epochs
    torch.manual_seed(0)
    loader = DataLoader(synthetic_utterances(cfg), batch_size=cfg.batch_size, shuffle=True)
    trainer = Trainer(IntentClassifier(cfg.model), cfg)
    for epoch in range(cfg.epochs):
        log.info("epoch %d loss %.4f", epoch, trainer.train_epoch(loader))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
