import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from extensions import Evaluator
from model import TabularNet


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 12, generator=g)
    y = (x[:, :3].sum(1) > 0).long() + (x[:, 3] > 1).long()
    return TensorDataset(x, y)


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    train_loader = DataLoader(make_split(64, 0), batch_size=8, shuffle=True, drop_last=True)
    val_loader = DataLoader(make_split(32, 1), batch_size=16)
    model = TabularNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    evaluator = Evaluator(val_loader, trigger=5)

    iteration = 0
    model.train()
    for epoch in range(2):
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            iteration += 1
            evaluator(model, iteration)


if __name__ == "__main__":
    main()
