import math

import torch
from torch.utils.data import Dataset


class KeywordClips(Dataset):
    """Log-mel clips of varying length, laid out like torchaudio's MelSpectrogram output: (n_mels, frames)."""

    def __init__(self, n_clips: int, n_mels: int, n_keywords: int, seed: int = 0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for i in range(n_clips):
            label = i % n_keywords
            frames = int(torch.randint(50, 70, (1,), generator=g))
            t = torch.arange(frames, dtype=torch.float32)
            band = torch.arange(n_mels, dtype=torch.float32)[:, None]
            tone = torch.sin(2 * math.pi * (label + 1) * t / frames)[None] * torch.exp(-(band - 4 * label) ** 2 / 20)
            mel = tone + 0.1 * torch.randn(n_mels, frames, generator=g)
            self.items.append((mel, label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]


def pad_collate(batch):
    n_mels = batch[0][0].shape[0]
    longest = max(mel.shape[1] for mel, _ in batch)
    mels = torch.zeros(len(batch), n_mels, longest)
    mask = torch.zeros(len(batch), longest, dtype=torch.bool)
    for i, (mel, _) in enumerate(batch):
        mels[i, :, : mel.shape[1]] = mel
        mask[i, : mel.shape[1]] = True
    labels = torch.tensor([label for _, label in batch])
    return mels, mask, labels
