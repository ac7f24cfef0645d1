import torch


class HashTokenizer:
    def __init__(self, num_buckets=1000, max_len=12):
        self.num_buckets = num_buckets
        self.max_len = max_len

    def _ids(self, text):
        words = text.lower().split()[: self.max_len]
        return [1 + (sum(ord(c) * 31 ** i for i, c in enumerate(w)) % (self.num_buckets - 1)) for w in words]

    def __call__(self, texts):
        out = torch.zeros(len(texts), self.max_len, dtype=torch.long)
        for i, text in enumerate(texts):
            ids = self._ids(text)
            out[i, : len(ids)] = torch.tensor(ids, dtype=torch.long)
        return out
