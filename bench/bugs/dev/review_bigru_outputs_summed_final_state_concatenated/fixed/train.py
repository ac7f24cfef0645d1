import logging
import random
from pathlib import Path

import torch
import torch.nn.functional as F
import yaml

from data import Vocab, batches, synthetic_reviews
from model import AttentiveReviewClassifier

logger = logging.getLogger("reviews")


def load_hparams(path=Path(__file__).with_name("hparams.yaml")):
    with open(path) as fh:
        return yaml.safe_load(fh)


def train_epoch(model: AttentiveReviewClassifier, reviews, vocab, hp, optimizer) -> float:
    model.train()
    total, n = 0.0, 0
    for tokens, lengths, labels in batches(reviews, vocab, hp["train"]["batch_size"], hp["data"]["max_len"]):
        logits, _ = model(tokens, lengths)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(labels)
        n += len(labels)
    return total / n


def main():
    logging.basicConfig(level=logging.INFO)
    random.seed(0)
    torch.manual_seed(0)
    hp = load_hparams()
    reviews = synthetic_reviews(hp["data"]["n_reviews"])
    vocab = Vocab([t for t, _ in reviews], hp["data"]["min_freq"])
    m = hp["model"]
    model = AttentiveReviewClassifier(len(vocab), m["emb_dim"], m["hidden_dim"], m["n_classes"], m["dropout"])
    optimizer = torch.optim.Adam(model.parameters(), lr=hp["train"]["lr"])
    for epoch in range(hp["train"]["epochs"]):
        logger.info("epoch %d loss %.4f", epoch, train_epoch(model, reviews, vocab, hp, optimizer))


if __name__ == "__main__":
    main()
