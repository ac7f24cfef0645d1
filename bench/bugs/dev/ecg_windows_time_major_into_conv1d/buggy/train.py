import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import LEADS, BeatWindows, synthetic_recording
from model import BeatClassifier

logger = logging.getLogger(__name__)


def run_epoch(model: BeatClassifier, loader: DataLoader, criterion: nn.Module, optimizer: torch.optim.Optimizer) -> float:
    model.train()
    total, seen = 0.0, 0
    for signals, labels in loader:
        logits = model(signals)
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(labels)
        seen += len(labels)
    return total / seen


def main() -> None:
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    dataset = BeatWindows(synthetic_recording(250 * 8))
    loader = DataLoader(dataset, batch_size=8, shuffle=True, drop_last=True)
    model = BeatClassifier(n_leads=len(LEADS))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        logger.info("epoch %d loss %.4f", epoch, run_epoch(model, loader, criterion, optimizer))


if __name__ == "__main__":
    main()
