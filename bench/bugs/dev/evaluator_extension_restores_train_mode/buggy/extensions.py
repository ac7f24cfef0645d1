import logging

import torch
import torch.nn.functional as F

log = logging.getLogger(__name__)


class Evaluator:
    """Runs validation every `trigger` iterations; may fire in the middle of an epoch."""

    def __init__(self, loader, trigger=5):
        self.loader = loader
        self.trigger = trigger
        self.history = []

    def __call__(self, model, iteration):
        if iteration % self.trigger != 0:
            return
        was_training = model.training
        model.eval()
        total, correct, loss_sum = 0, 0, 0.0
        with torch.no_grad():
            for x, y in self.loader:
                out = model(x)
                loss_sum += F.cross_entropy(out, y, reduction="sum").item()
                correct += (out.argmax(1) == y).sum().item()
                total += len(y)
        model.train(was_training)
        self.history.append({"iteration": iteration, "val/loss": loss_sum / total, "val/acc": correct / total})
        log.info("iter %d %s", iteration, self.history[-1])
