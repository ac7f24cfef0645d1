import logging

import torch

from config import TaggerConfig
from model import BiLSTMTagger

logging.basicConfig(format="%(asctime)s %(message)s", level=logging.INFO)


def fake_corpus(cfg, n=24):
    tokens = torch.randint(1, cfg.vocab_size, (n, cfg.seq_len))
    labels = torch.randint(0, len(cfg.labels), (n, cfg.seq_len))
    labels[:, -3:] = -100
    return tokens, labels


def train_epoch(model, optimizer, tokens, labels, batch_size):
    model.train()
    total = 0.0
    for start in range(0, tokens.size(0), batch_size):
        x = tokens[start:start + batch_size]
        y = labels[start:start + batch_size]
        scores = model(x)
        loss = model.head.loss(scores, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total


def main():
    torch.manual_seed(0)
    cfg = TaggerConfig()
    model = BiLSTMTagger(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    tokens, labels = fake_corpus(cfg)
    for epoch in range(2):
        logging.info("epoch %d loss %.4f", epoch, train_epoch(model, optimizer, tokens, labels, cfg.batch_size))


if __name__ == "__main__":
    main()
