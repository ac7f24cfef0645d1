import random

import torch

VOCAB = 120


def make_batches(n_batches: int, batch_size: int, seed: int = 0):
    rnd = random.Random(seed)
    batches = []
    for _ in range(n_batches):
        lengths = [rnd.randint(6, 15) for _ in range(batch_size)]
        longest = max(lengths)
        tokens = torch.zeros(batch_size, longest, dtype=torch.long)
        marks = torch.zeros(batch_size, longest, dtype=torch.long)
        for i, n in enumerate(lengths):
            words = [rnd.randrange(1, VOCAB) for _ in range(n)]
            tokens[i, :n] = torch.tensor(words)
            for j, w in enumerate(words):
                if j == n - 1:
                    marks[i, j] = 3 if w % 5 == 0 else 2
                elif w % 7 == 0:
                    marks[i, j] = 1
        batches.append((tokens, marks))
    return batches
