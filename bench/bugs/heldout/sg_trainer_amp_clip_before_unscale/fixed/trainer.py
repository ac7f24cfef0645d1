import logging
from dataclasses import dataclass

import torch

logger = logging.getLogger("sg_trainer")


@dataclass
class TrainingParams:
    max_epochs: int = 2
    lr: float = 1e-2
    mixed_precision: bool = True
    clip_grad_norm: float = 1.0
    batch_accumulate: int = 1


class Trainer:
    def __init__(self, net, criterion, params: TrainingParams):
        self.net = net
        self.criterion = criterion
        self.params = params
        self.optimizer = torch.optim.SGD(net.parameters(), lr=params.lr, momentum=0.9)
        self.scaler = torch.amp.GradScaler("cpu", enabled=params.mixed_precision)

    def _backward_step(self, loss, batch_idx):
        self.scaler.scale(loss).backward()
        if self.params.clip_grad_norm:
            self.scaler.unscale_(self.optimizer)
            torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.params.clip_grad_norm)
        if (batch_idx + 1) % self.params.batch_accumulate == 0:
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.optimizer.zero_grad()

    def _train_epoch(self, loader, epoch):
        self.net.train()
        for batch_idx, (images, masks) in enumerate(loader):
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.params.mixed_precision):
                outputs = self.net(images)
                loss = self.criterion(outputs.float(), masks)
            self._backward_step(loss, batch_idx)
        logger.info("epoch %d loss %.4f scale %.0f", epoch, loss.item(), self.scaler.get_scale())

    def train(self, loader):
        for epoch in range(self.params.max_epochs):
            self._train_epoch(loader, epoch)
