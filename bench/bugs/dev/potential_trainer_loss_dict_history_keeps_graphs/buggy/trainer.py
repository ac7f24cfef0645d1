import logging
from collections import defaultdict

import torch

from loss import WeightedLoss
from model import AtomwiseNet

logger = logging.getLogger("trainer")


class Trainer:
    def __init__(self, model: AtomwiseNet, loss_coeffs, learning_rate=1e-3, max_epochs=10, log_batch_freq=10):
        self.model = model
        self.loss = WeightedLoss(loss_coeffs)
        self.optim = torch.optim.Adam(self.model.parameters(), lr=learning_rate)
        self.max_epochs = max_epochs
        self.log_batch_freq = log_batch_freq
        self.iepoch = 0
        self.ibatch = 0
        self.batch_losses = defaultdict(list)
        self.epoch_logs = []

    def batch_step(self, data):
        self.optim.zero_grad()
        pred = self.model(data["species"], data["pos"])
        losses = self.loss(pred=pred, ref=data)
        losses["loss"].backward()
        self.optim.step()

        # save loss stats for the epoch summary
        for key, value in losses.items():
            self.batch_losses[key].append(value)

        if self.ibatch % self.log_batch_freq == 0:
            logger.info("epoch %d batch %d loss %.5f", self.iepoch, self.ibatch, losses["loss"].item())

    def end_of_epoch(self):
        summary = {key: torch.stack(values).mean().item() for key, values in self.batch_losses.items()}
        self.epoch_logs.append(summary)
        self.batch_losses = defaultdict(list)
        logger.info("epoch %d %s", self.iepoch, summary)
        return summary

    def train(self, loader):
        self.model.train()
        for self.iepoch in range(self.max_epochs):
            for self.ibatch, data in enumerate(loader):
                self.batch_step(data)
            self.end_of_epoch()
        return self.epoch_logs
