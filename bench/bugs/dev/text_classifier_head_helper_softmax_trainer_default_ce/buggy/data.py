import torch
from torch.utils.data import DataLoader, TensorDataset


def synthetic_corpus(n, max_len, vocab_size, num_labels, seed):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(4, max_len + 1, (n,), generator=g)
    input_ids = torch.randint(1, vocab_size, (n, max_len), generator=g)
    attention_mask = (torch.arange(max_len).unsqueeze(0) < lengths.unsqueeze(1)).long()
    input_ids = input_ids * attention_mask
    labels = input_ids[:, 0] % num_labels
    return TensorDataset(input_ids, attention_mask, labels)


def get_loaders(batch_size=16, max_len=24, vocab_size=200, num_labels=5):
    train = synthetic_corpus(96, max_len, vocab_size, num_labels, seed=0)
    valid = synthetic_corpus(32, max_len, vocab_size, num_labels, seed=1)
    return (
        DataLoader(train, batch_size=batch_size, shuffle=True),
        DataLoader(valid, batch_size=batch_size),
    )
