import torch
from torch.utils.data import DataLoader, TensorDataset


def synthetic_utterances(n, cfg, seed=0):
    """Token sequences of random length, right-padded; the intent is set by a keyword token."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(cfg.num_intents + 1, cfg.vocab_size, (n, cfg.max_len), generator=g)
    lengths = torch.randint(4, cfg.max_len + 1, (n,), generator=g)
    labels = torch.randint(0, cfg.num_intents, (n,), generator=g)
    ids[:, 0] = labels + 1
    pad = torch.arange(cfg.max_len).unsqueeze(0) >= lengths.unsqueeze(1)
    ids[pad] = cfg.pad_id
    return TensorDataset(ids, labels)


def make_loader(cfg, batch_size, seed=0):
    return DataLoader(synthetic_utterances(48, cfg, seed), batch_size=batch_size, shuffle=True)
