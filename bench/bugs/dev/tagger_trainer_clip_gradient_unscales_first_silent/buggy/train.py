import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from tagger import SimpleTagger
from training import GradientDescentTrainer

VOCAB, TAGS, SEQ = 100, 6, 12


def pos_like(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(1, VOCAB, (n, SEQ), generator=g)
    lengths = torch.randint(5, SEQ + 1, (n,), generator=g)
    tokens[torch.arange(SEQ).unsqueeze(0) >= lengths.unsqueeze(1)] = 0
    tags = tokens % TAGS
    return TensorDataset(tokens, tags)


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(13370)
    model = SimpleTagger(VOCAB, TAGS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(pos_like(64), batch_size=8, shuffle=True)
    trainer = GradientDescentTrainer(model, optimizer, loader, num_epochs=2, grad_norm=1.0, use_amp=True)
    trainer.train()


if __name__ == "__main__":
    main()
