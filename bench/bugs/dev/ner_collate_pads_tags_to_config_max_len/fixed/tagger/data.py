import random
from typing import List, Tuple

import torch

from tagger.config import TaggerConfig
from tagger.vocab import Vocab

NAMES = ["alice", "bob", "maria", "chen"]
PLACES = ["paris", "lagos", "lima", "oslo"]
ORGS = ["acme", "initech", "globex"]
FILLER = ["met", "with", "in", "at", "the", "office", "of", "yesterday", "and", "visited"]


def synthetic_corpus(n: int, seed: int = 0) -> List[Tuple[List[str], List[str]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words, tags = [], []
        for _ in range(rng.randint(3, 9)):
            kind = rng.random()
            if kind < 0.15:
                words.append(rng.choice(NAMES)); tags.append("B-PER")
            elif kind < 0.3:
                words.append(rng.choice(PLACES)); tags.append("B-LOC")
            elif kind < 0.4:
                words += [rng.choice(ORGS), "inc"]; tags += ["B-ORG", "I-ORG"]
            else:
                words.append(rng.choice(FILLER)); tags.append("O")
        out.append((words, tags))
    return out


class Collator:
    def __init__(self, vocab: Vocab, cfg: TaggerConfig):
        self.vocab = vocab
        self.cfg = cfg
        self.tag2id = {t: i for i, t in enumerate(cfg.tags)}

    def __call__(self, batch):
        ids = [self.vocab.encode(w)[: self.cfg.max_len] for w, _ in batch]
        tags = [[self.tag2id[t] for t in ts][: self.cfg.max_len] for _, ts in batch]
        longest = max(len(s) for s in ids)
        lengths = torch.tensor([len(s) for s in ids])
        token_ids = torch.tensor([s + [0] * (longest - len(s)) for s in ids])
        tag_ids = torch.tensor([t + [-100] * (longest - len(t)) for t in tags])
        return token_ids, lengths, tag_ids
