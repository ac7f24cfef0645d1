import torch
from torch.utils.data import Dataset


def pad_or_trim(feat, max_frames):
    if feat.shape[-1] >= max_frames:
        return feat[..., :max_frames]
    return torch.nn.functional.pad(feat, (0, max_frames - feat.shape[-1]))


class RavdessMFCC(Dataset):
    """Stand-in for precomputed RAVDESS MFCCs: utterances of 2.5-3.5 s at a 10 ms hop."""

    def __init__(self, n=32, n_mfcc=40, max_frames=110, seed=0):
        gen = torch.Generator().manual_seed(seed)
        self.items = []
        for k in range(n):
            frames = int(torch.randint(250, 350, (1,), generator=gen))
            feat = torch.randn(n_mfcc, frames, generator=gen)
            self.items.append((pad_or_trim(feat, max_frames)[None], k % 8))
        self.max_frames = max_frames

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]
