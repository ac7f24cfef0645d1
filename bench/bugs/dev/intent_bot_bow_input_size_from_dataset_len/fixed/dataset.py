import numpy as np
import torch
from torch.utils.data import Dataset

from nlp_utils import bag_of_words, stem, tokenize


class IntentDataset(Dataset):
    def __init__(self, intents: dict):
        self.tags = sorted(intents)
        pairs = [(tokenize(p), tag) for tag, patterns in intents.items() for p in patterns]
        self.vocabulary = sorted({stem(t) for tokens, _ in pairs for t in tokens if t not in {"?", "!"}})
        self.x = np.stack([bag_of_words(tokens, self.vocabulary) for tokens, _ in pairs])
        self.y = np.array([self.tags.index(tag) for _, tag in pairs])

    def __len__(self):
        return len(self.y)

    def __getitem__(self, idx):
        return torch.from_numpy(self.x[idx]), int(self.y[idx])
