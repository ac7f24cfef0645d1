import torch
from torch.utils.data import Dataset

import hparams


class MelTextDataset(Dataset):
    """Phoneme ids and their target mel frames; utterances have different lengths."""

    def __init__(self, n_utts=6, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n_utts):
            n_phones = int(torch.randint(5, 9, (1,), generator=g))
            frames = n_phones * 3
            text = torch.randint(1, hparams.vocab_size, (n_phones,), generator=g)
            mel = torch.randn(frames, hparams.n_mels, generator=g)
            self.items.append({"text": text, "mel": mel, "duration": torch.full((n_phones,), 3)})

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]


def pad_1d(seqs, pad_value=0):
    max_len = max(s.shape[0] for s in seqs)
    return torch.stack([torch.nn.functional.pad(s, (0, max_len - s.shape[0]), value=pad_value) for s in seqs])


def collate_fn(batch):
    texts = pad_1d([item["text"] for item in batch])
    durations = pad_1d([item["duration"] for item in batch])
    mels = torch.stack([item["mel"] for item in batch])
    mel_lens = torch.tensor([item["mel"].shape[0] for item in batch])
    return {"text": texts, "duration": durations, "mel": mels, "mel_len": mel_lens}
