import random

LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG"]


class Vocab:
    def __init__(self, words):
        self.itos = ["<pad>", "<unk>"] + sorted(set(words))
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def encode(self, tokens):
        return [self.stoi.get(t, 1) for t in tokens]

    def __len__(self):
        return len(self.itos)


def synthetic_corpus(n_sentences, seed=0):
    rng = random.Random(seed)
    names, orgs, filler = ["ada", "alan", "grace"], ["acme", "initech"], ["works", "at", "the", "with", "met"]
    corpus = []
    for _ in range(n_sentences):
        tokens, tags = [], []
        for _ in range(rng.randint(4, 8)):
            r = rng.random()
            if r < 0.2:
                tokens.append(rng.choice(names)); tags.append(1)
            elif r < 0.35:
                tokens.append(rng.choice(orgs)); tags.append(3)
            else:
                tokens.append(rng.choice(filler)); tags.append(0)
        corpus.append((tokens, tags))
    return corpus
