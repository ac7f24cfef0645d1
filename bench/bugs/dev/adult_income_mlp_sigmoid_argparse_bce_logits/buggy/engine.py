import logging

import torch
from torch import nn

from model import AdultNet

log = logging.getLogger(__name__)


def train_one_epoch(model: AdultNet, loader, criterion: nn.Module, optimizer: torch.optim.Optimizer) -> float:
    model.train()
    total, n = 0.0, 0
    for features, target in loader:
        optimizer.zero_grad()
        output = model(features)
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(target)
        n += len(target)
    return total / n


def accuracy(model: AdultNet, loader) -> float:
    correct, n = 0, 0
    for features, target in loader:
        pred = model.predict(features)
        correct += (pred == target.squeeze(1).long()).sum().item()
        n += len(target)
    return correct / n
