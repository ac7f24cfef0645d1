import torch
from torch.nn.utils.rnn import pad_sequence


def utterances(n: int, text_dim: int, audio_dim: int, max_len: int, seed: int = 13):
    g = torch.Generator().manual_seed(seed)
    items = []
    for _ in range(n):
        t_len = int(torch.randint(5, max_len // 2, (1,), generator=g))
        a_len = int(torch.randint(8, max_len, (1,), generator=g))
        items.append((torch.randn(t_len, text_dim, generator=g), torch.randn(a_len, audio_dim, generator=g),
                      torch.randn(1, generator=g)))
    return items


def collate(items):
    text = pad_sequence([t for t, _, _ in items], batch_first=True)
    audio = pad_sequence([a for _, a, _ in items], batch_first=True)
    audio_lengths = torch.tensor([len(a) for _, a, _ in items])
    labels = torch.cat([y for _, _, y in items])
    return text, audio, audio_lengths, labels
