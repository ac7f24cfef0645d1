import logging

import torch

logger = logging.getLogger(__name__)


def train_one_epoch(model, loader, optimizer, epoch, importance=None):
    if hasattr(loader.sampler, "set_epoch"):
        loader.sampler.set_epoch(epoch)
    model.train()
    total, steps = 0.0, 0
    for batch in loader:
        out = model(batch)
        weight = importance if importance is not None else 1.0
        loss = (weight * (out - batch) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        steps += 1
    return total / max(steps, 1)
