import random
from collections import Counter

import torch

POSITIVE = ["great", "loved", "excellent", "fun", "moving", "brilliant"]
NEGATIVE = ["boring", "awful", "hated", "dull", "weak", "mess"]
FILLER = ["the", "movie", "was", "plot", "actors", "and", "really", "a", "bit", "story"]


def synthetic_reviews(n: int, seed: int = 0):
    rng = random.Random(seed)
    reviews = []
    for _ in range(n):
        label = rng.randint(0, 1)
        cue = POSITIVE if label else NEGATIVE
        words = [rng.choice(FILLER) for _ in range(rng.randint(5, 20))]
        for _ in range(2):
            words.insert(rng.randrange(len(words)), rng.choice(cue))
        reviews.append((" ".join(words), label))
    return reviews


class Vocab:
    def __init__(self, texts, min_freq: int = 1):
        counts = Counter(w for t in texts for w in t.split())
        self.itos = ["<pad>", "<unk>"] + sorted(w for w, c in counts.items() if c >= min_freq)
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def encode(self, text: str, max_len: int):
        return [self.stoi.get(w, 1) for w in text.split()][:max_len]


def batches(reviews, vocab: Vocab, batch_size: int, max_len: int, shuffle: bool = True):
    order = list(range(len(reviews)))
    if shuffle:
        random.shuffle(order)
    for start in range(0, len(order), batch_size):
        chunk = [reviews[i] for i in order[start : start + batch_size]]
        ids = [vocab.encode(text, max_len) for text, _ in chunk]
        lengths = torch.tensor([len(x) for x in ids])
        tokens = torch.zeros(len(ids), int(lengths.max()), dtype=torch.long)
        for row, seq in enumerate(ids):
            tokens[row, : len(seq)] = torch.tensor(seq)
        yield tokens, lengths, torch.tensor([label for _, label in chunk])
