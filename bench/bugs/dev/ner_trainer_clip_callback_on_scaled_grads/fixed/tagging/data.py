import torch
from torch.utils.data import DataLoader, TensorDataset


def toy_ner(n=24, seq_len=10, vocab_size=50, num_tags=5, seed=0):
    """Token ids with padding; a token's tag is a fixed function of its id, so the task is learnable."""
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(4, seq_len + 1, (n,), generator=g)
    tokens = torch.randint(1, vocab_size, (n, seq_len), generator=g)
    tokens[torch.arange(seq_len)[None] >= lengths[:, None]] = 0
    tags = (tokens % num_tags) * (tokens != 0)
    return TensorDataset(tokens, tags)


def make_loader(batch_size, seed=0):
    return DataLoader(toy_ner(seed=seed), batch_size=batch_size, shuffle=True,
                      generator=torch.Generator().manual_seed(seed))
