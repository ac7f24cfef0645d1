import random

import torch

VOCAB = 200
PAD = 0


def synthetic_utterances(n: int, n_intents: int, seed: int = 0):
    rnd = random.Random(seed)
    keywords = {k: [rnd.randrange(1, VOCAB) for _ in range(5)] for k in range(n_intents)}
    rows = []
    for _ in range(n):
        intent = rnd.randrange(n_intents) if rnd.random() > 0.3 else 0
        length = rnd.randint(4, 10)
        tokens = [rnd.choice(keywords[intent]) if rnd.random() < 0.4 else rnd.randrange(1, VOCAB) for _ in range(length)]
        rows.append((tokens, intent))
    return rows


def collate(rows):
    longest = max(len(t) for t, _ in rows)
    tokens = torch.full((len(rows), longest), PAD, dtype=torch.long)
    for i, (t, _) in enumerate(rows):
        tokens[i, : len(t)] = torch.tensor(t)
    labels = torch.tensor([y for _, y in rows])
    return tokens, labels


def class_weights(rows, n_intents: int):
    counts = torch.zeros(n_intents)
    for _, y in rows:
        counts[y] += 1
    return counts.sum() / (n_intents * counts.clamp(min=1))
