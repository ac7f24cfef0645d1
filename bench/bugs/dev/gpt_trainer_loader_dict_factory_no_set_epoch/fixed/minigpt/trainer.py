import logging
import time

import torch

from .data import build_dataloaders

logger = logging.getLogger(__name__)


class Trainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.loaders = build_dataloaders(cfg)
        self.optimizer = torch.optim.AdamW(
            model.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay
        )
        self.epochs_run = 0
        self.history = []

    def _run_batch(self, source, targets):
        self.optimizer.zero_grad(set_to_none=True)
        _, loss = self.model(source, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.grad_norm_clip)
        self.optimizer.step()
        return loss.item()

    def _run_epoch(self, epoch):
        self.model.train()
        losses = []
        self.loaders["train"].sampler.set_epoch(epoch)
        for source, targets in self.loaders["train"]:
            losses.append(self._run_batch(source, targets))
        return sum(losses) / len(losses)

    @torch.no_grad()
    def _evaluate(self):
        self.model.eval()
        total, count = 0.0, 0
        for source, targets in self.loaders["val"]:
            _, loss = self.model(source, targets)
            total += loss.item()
            count += 1
        return total / count

    def fit(self):
        for epoch in range(self.epochs_run, self.cfg.max_epochs):
            start = time.time()
            train_loss = self._run_epoch(epoch)
            val_loss = self._evaluate()
            self.epochs_run = epoch + 1
            self.history.append((train_loss, val_loss))
            logger.info(
                "[rank %d] epoch %d | train %.4f | val %.4f | %.1fs",
                self.cfg.rank, epoch, train_loss, val_loss, time.time() - start,
            )
        return self.history
