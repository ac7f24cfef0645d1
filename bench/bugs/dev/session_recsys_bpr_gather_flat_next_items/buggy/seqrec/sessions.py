import numpy as np
import torch
from torch.utils.data import Dataset


def simulate_sessions(n_sessions: int, n_items: int, seed: int = 0):
    """Clicks drift through neighbouring item ids, like browsing one category."""
    rng = np.random.default_rng(seed)
    sessions = []
    for _ in range(n_sessions):
        length = int(rng.integers(3, 10))
        start = int(rng.integers(1, n_items))
        steps = rng.integers(-3, 4, size=length - 1)
        sessions.append(np.clip(np.concatenate([[start], start + np.cumsum(steps)]), 1, n_items - 1))
    return sessions


class NextClickDataset(Dataset):
    """Every prefix of a session (left-padded to max_len with item 0) predicts its next click."""

    def __init__(self, sessions, max_len: int = 8):
        self.examples = []
        for s in sessions:
            for t in range(1, len(s)):
                prefix = list(s[max(0, t - max_len):t])
                self.examples.append(([0] * (max_len - len(prefix)) + prefix, int(s[t])))

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        prefix, target = self.examples[i]
        return torch.tensor(prefix), target
