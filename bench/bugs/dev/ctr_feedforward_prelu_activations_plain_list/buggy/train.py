import logging

import torch
import torch.nn.functional as F

from config import MODEL, TRAIN
from ctr.model import DeepFM
from data import loader

log = logging.getLogger("ctr")


def train_epoch(model, batches, optimizer):
    model.train()
    total, n = 0.0, 0
    for fields, clicks in batches:
        loss = F.binary_cross_entropy_with_logits(model(fields), clicks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(clicks)
        n += len(clicks)
    return total / n


def main():
    torch.manual_seed(TRAIN["seed"])
    gen = torch.Generator().manual_seed(TRAIN["seed"])
    model = DeepFM(**MODEL)
    optimizer = torch.optim.Adam(model.parameters(), lr=TRAIN["lr"])
    batches = loader(MODEL["field_dims"], TRAIN, gen)
    for epoch in range(TRAIN["epochs"]):
        log.info("epoch %d logloss %.4f", epoch, train_epoch(model, batches, optimizer))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
