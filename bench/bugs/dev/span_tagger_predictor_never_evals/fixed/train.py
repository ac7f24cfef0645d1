import logging

import torch
import torch.nn as nn

from model import TokenTagger
from predictor import SpanPredictor, pad
from vocab import LABELS, Vocab, synthetic_corpus

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("tagger")


def batches(corpus, vocab, size):
    for i in range(0, len(corpus), size):
        part = corpus[i:i + size]
        yield pad([vocab.encode(t) for t, _ in part]), pad([tags for _, tags in part], value=-100)


def main():
    torch.manual_seed(0)
    corpus = synthetic_corpus(48)
    vocab = Vocab(w for tokens, _ in corpus for w in tokens)
    model = TokenTagger(len(vocab), len(LABELS))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss(ignore_index=-100)

    model.train()
    for epoch in range(2):
        total = 0.0
        for input_ids, labels in batches(corpus, vocab, 16):
            logits = model(input_ids)
            loss = loss_fn(logits.reshape(-1, len(LABELS)), labels.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        log.info("epoch %d loss %.3f", epoch, total)

    predictor = SpanPredictor(model, vocab)
    spans = predictor.predict([["ada", "works", "at", "acme"], ["grace", "met", "alan"]])
    log.info("spans: %s", spans)


if __name__ == "__main__":
    main()
