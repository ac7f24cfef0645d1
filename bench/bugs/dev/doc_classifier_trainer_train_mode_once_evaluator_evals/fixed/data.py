import torch
from torch.utils.data import DataLoader, TensorDataset


def synthetic_reviews(n, vocab, length, classes, seed):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, classes, (n,), generator=g)
    text = torch.randint(classes, vocab, (n, length), generator=g)
    cue = torch.randint(0, length, (n,), generator=g)
    text[torch.arange(n), cue] = labels
    return TensorDataset(text, labels)


def get_loaders(args):
    train = synthetic_reviews(64, args.words_num, 20, args.target_class, seed=args.seed)
    dev = synthetic_reviews(16, args.words_num, 20, args.target_class, seed=args.seed + 1)
    return DataLoader(train, batch_size=args.batch_size, shuffle=True), DataLoader(dev, batch_size=args.batch_size)
