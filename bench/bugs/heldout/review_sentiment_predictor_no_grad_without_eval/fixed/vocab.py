import re
from collections import Counter

TOKEN = re.compile(r"[a-z']+")


class Vocab:
    def __init__(self, texts, min_freq: int = 1):
        counts = Counter(tok for text in texts for tok in TOKEN.findall(text.lower()))
        self.itos = ["<pad>", "<unk>"] + sorted(t for t, c in counts.items() if c >= min_freq)
        self.stoi = {t: i for i, t in enumerate(self.itos)}

    def encode(self, text: str, max_len: int = 32):
        ids = [self.stoi.get(t, 1) for t in TOKEN.findall(text.lower())][:max_len]
        return ids + [0] * (max_len - len(ids))

    def __len__(self):
        return len(self.itos)
