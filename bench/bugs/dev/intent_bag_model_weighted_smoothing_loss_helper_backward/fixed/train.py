import argparse
import logging

import torch
from torch.utils.data import DataLoader

from intents.data import VOCAB, class_weights, collate, synthetic_utterances
from intents.losses import accuracy, weighted_smoothed_ce
from intents.model import IntentClassifier

log = logging.getLogger("intents")


def train_step(model: IntentClassifier, batch, optimizer, weights, smoothing):
    tokens, labels = batch
    logits = model(tokens)
    loss = weighted_smoothed_ce(logits, labels, weights, smoothing).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.detach(), accuracy(logits.detach(), labels)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--intents", type=int, default=6)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--smoothing", type=float, default=0.1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(3)

    rows = synthetic_utterances(128, args.intents)
    weights = class_weights(rows, args.intents)
    loader = DataLoader(rows, batch_size=args.batch_size, shuffle=True, collate_fn=collate)
    model = IntentClassifier(VOCAB, args.intents)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        model.train()
        for i, batch in enumerate(loader):
            loss, acc = train_step(model, batch, optimizer, weights, args.smoothing)
            if i % 4 == 0:
                log.info("epoch %d batch %d loss %.4f acc %.3f", epoch, i, loss.mean().item(), acc.item())


if __name__ == "__main__":
    main()
