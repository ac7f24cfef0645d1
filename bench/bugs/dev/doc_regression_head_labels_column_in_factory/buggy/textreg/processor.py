import torch
from torch.utils.data import TensorDataset


def tokenize(texts, vocab, max_len):
    ids = torch.zeros(len(texts), max_len, dtype=torch.long)
    for i, text in enumerate(texts):
        toks = [vocab.setdefault(w, len(vocab) + 1) for w in text.split()][:max_len]
        ids[i, :len(toks)] = torch.tensor(toks)
    return ids


def dataset_from_records(records, vocab, max_len=16, label_scale=16.0):
    """records: (text, score) pairs; scores are scaled to [0, 1] and kept as a column, like the head's output."""
    texts = [r[0] for r in records]
    scores = torch.tensor([r[1] for r in records], dtype=torch.float32) / label_scale
    return TensorDataset(tokenize(texts, vocab, max_len), scores.unsqueeze(1))
