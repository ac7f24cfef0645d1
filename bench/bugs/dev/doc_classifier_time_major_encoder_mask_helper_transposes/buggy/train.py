import argparse
import logging
import random

import torch
import torch.nn.functional as F

from textenc.encoder import DocClassifier

PAD = 0


def time_major_batch(docs):
    """Pads a list of token lists into (S, N), the layout the encoder was written for."""
    longest = max(len(d) for d in docs)
    out = torch.full((longest, len(docs)), PAD, dtype=torch.long)
    for j, d in enumerate(docs):
        out[: len(d), j] = torch.tensor(d)
    return out


def synthetic_docs(n, n_classes, vocab, rnd):
    docs, labels = [], []
    for _ in range(n):
        y = rnd.randrange(n_classes)
        length = rnd.randint(5, 20)
        docs.append([rnd.randrange(1 + y * 10, 11 + y * 10) if rnd.random() < 0.5 else rnd.randrange(1, vocab)
                     for _ in range(length)])
        labels.append(y)
    return docs, torch.tensor(labels)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=6)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    rnd = random.Random(0)

    vocab = 64
    model = DocClassifier(vocab, args.classes, pad_id=PAD)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(args.steps):
        docs, labels = synthetic_docs(args.batch_size, args.classes, vocab, rnd)
        logits = model(time_major_batch(docs))
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            logging.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
