import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from nerkit.model import TokenTagger
from nerkit.trainer import Trainer

CONFIG = {
    "vocab_size": 200,
    "num_tags": 9,
    "max_len": 20,
    "batch_size": 16,
    "lr": 1e-3,
    "max_grad_norm": 5.0,
    "epochs": 2,
}


def synthetic_corpus(n, vocab_size, num_tags, max_len, seed=13):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(5, max_len + 1, (n,), generator=g)
    tokens = torch.zeros(n, max_len, dtype=torch.long)
    tags = torch.zeros(n, max_len, dtype=torch.long)
    for i, length in enumerate(lengths.tolist()):
        tokens[i, :length] = torch.randint(1, vocab_size, (length,), generator=g)
        tags[i, :length] = torch.randint(0, num_tags, (length,), generator=g)
    return TensorDataset(tokens, tags)


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    ds = synthetic_corpus(128, CONFIG["vocab_size"], CONFIG["num_tags"], CONFIG["max_len"])
    loader = DataLoader(ds, batch_size=CONFIG["batch_size"], shuffle=True)
    model = TokenTagger(CONFIG["vocab_size"], CONFIG["num_tags"])
    trainer = Trainer(model, CONFIG)
    for epoch in range(CONFIG["epochs"]):
        trainer.train_epoch(loader)


if __name__ == "__main__":
    main()
