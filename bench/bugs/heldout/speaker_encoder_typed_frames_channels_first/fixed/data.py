import torch


def utterances(n: int = 12, n_mfcc: int = 13, frames: int = 50, num_speakers: int = 6):
    """MFCCs laid out (n_mfcc, frames), as torchaudio.transforms.MFCC returns them, with a valid-frame mask."""
    g = torch.Generator().manual_seed(0)
    items = []
    for i in range(n):
        speaker = i % num_speakers
        length = int(torch.randint(30, frames + 1, (1,), generator=g))
        mfcc = torch.randn(n_mfcc, frames, generator=g) + speaker * 0.1
        mask = torch.arange(frames) < length
        items.append((mfcc, mask, speaker))
    return items


def collate(items):
    feats = torch.stack([m.t() for m, _, _ in items])
    mask = torch.stack([k for _, k, _ in items])
    labels = torch.tensor([s for _, _, s in items])
    return feats, mask, labels
