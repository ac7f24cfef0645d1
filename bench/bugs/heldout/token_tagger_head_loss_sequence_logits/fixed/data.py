import torch
from torch.nn.utils.rnn import pad_sequence


def make_corpus(n: int = 24, vocab_size: int = 200, num_tags: int = 9, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    sents = []
    for _ in range(n):
        length = int(torch.randint(5, 15, (1,), generator=g))
        tokens = torch.randint(1, vocab_size, (length,), generator=g)
        tags = tokens % num_tags
        sents.append((tokens, tags))
    return sents


def collate(batch):
    tokens = pad_sequence([t for t, _ in batch], batch_first=True, padding_value=0)
    tags = pad_sequence([y for _, y in batch], batch_first=True, padding_value=-100)
    return tokens, tags
