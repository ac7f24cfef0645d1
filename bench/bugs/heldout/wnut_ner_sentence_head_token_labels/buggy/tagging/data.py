import torch
from torch.utils.data import Dataset

TAGS = ["O", "B-person", "I-person", "B-location", "I-location", "B-product", "I-product"]


class WNUTDataset(Dataset):
    """Tokenised tweets with one tag per (sub)token; -100 on padding, as the tokenizer alignment leaves it."""

    def __init__(self, n_docs=32, max_len=12, vocab_size=200, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.input_ids = torch.randint(1, vocab_size, (n_docs, max_len), generator=g)
        self.labels = torch.randint(0, len(TAGS), (n_docs, max_len), generator=g)
        lengths = torch.randint(5, max_len + 1, (n_docs,), generator=g)
        pad = torch.arange(max_len).unsqueeze(0) >= lengths.unsqueeze(1)
        self.input_ids[pad] = 0
        self.labels[pad] = -100

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, idx):
        return {"input_ids": self.input_ids[idx], "labels": self.labels[idx]}


def collate(items):
    return {key: torch.stack([item[key] for item in items]) for key in items[0]}
