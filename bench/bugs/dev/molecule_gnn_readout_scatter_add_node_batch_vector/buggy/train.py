import logging

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from graphs import collate, random_molecule
from model import PropertyGIN

log = logging.getLogger(__name__)


def evaluate(model, loader):
    model.eval()
    err, n = 0.0, 0
    with torch.no_grad():
        for atoms, edges, batch, y in loader:
            pred = model(atoms, edges, batch, len(y))
            err += (pred - y).abs().sum().item()
            n += len(y)
    return err / n


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    mols = [random_molecule(rng) for _ in range(80)]
    train_loader = DataLoader(mols[:64], batch_size=16, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(mols[64:], batch_size=16, collate_fn=collate)

    model = PropertyGIN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        model.train()
        for atoms, edges, batch, y in train_loader:
            loss = F.mse_loss(model(atoms, edges, batch, len(y)), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        log.info("epoch %d val MAE %.4f", epoch, evaluate(model, val_loader))


if __name__ == "__main__":
    main()
