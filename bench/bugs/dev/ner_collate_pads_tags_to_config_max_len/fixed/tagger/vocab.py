from collections import Counter
from typing import Iterable, List

from tagger.config import PAD, UNK


class Vocab:
    def __init__(self, sentences: Iterable[List[str]], min_freq: int = 1):
        counts = Counter(w.lower() for s in sentences for w in s)
        self.itos = [PAD, UNK] + sorted(w for w, c in counts.items() if c >= min_freq)
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def encode(self, words: List[str]) -> List[int]:
        return [self.stoi.get(w.lower(), 1) for w in words]
