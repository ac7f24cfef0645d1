import argparse
import logging
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

from data import TokenDataset, build_dataloader

LOGGER = logging.getLogger(__name__)


class TinyLM(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, x):
        out, _ = self.rnn(self.embed(x))
        return self.head(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=3e-4)
    args = parser.parse_args([])

    rank = int(os.environ.get("RANK", 0))
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    torch.manual_seed(0)

    model = TinyLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    dataloader = build_dataloader(TokenDataset(), args.batch_size, world_size, rank)

    for epoch in range(args.num_epochs):
        model.train()
        for step, (inputs, labels) in enumerate(dataloader):
            logits = model(inputs)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        if rank == 0:
            LOGGER.warning("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    main()
