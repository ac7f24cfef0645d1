import torch
from torch.utils.data import Dataset


class FbankDataset(Dataset):
    """Log-mel filterbank features, stored with a leading channel axis as the 2-d augmentation expects."""

    def __init__(self, n=16, n_mels=40, frames=64, vocab=30, seed=0):
        gen = torch.Generator().manual_seed(seed)
        self.feats = torch.randn(n, 1, n_mels, frames, generator=gen)
        self.targets = torch.randint(1, vocab, (n, 10), generator=gen)

    def __len__(self):
        return len(self.feats)

    def __getitem__(self, idx):
        feat = self.feats[idx]
        if torch.rand(()) < 0.5:
            t0 = int(torch.randint(0, feat.shape[-1] - 8, ()))
            feat = feat.clone()
            feat[..., t0:t0 + 8] = 0.0
        return feat, self.targets[idx]
