import logging

import torch

log = logging.getLogger(__name__)


class BaseTrainer:
    def __init__(self, max_epochs=2, grad_clip=10.0):
        self.max_epochs = max_epochs
        self.grad_clip = grad_clip

    def fit(self, module, dataloader, optimizer):
        for epoch in range(self.max_epochs):
            metrics = self.train(dataloader, module, optimizer)
            log.warning("epoch %d %s", epoch, metrics)

    def train(self, dataloader, module, optimizer):
        module.train()
        outputs = []
        for i, batch in enumerate(dataloader):
            optimizer.zero_grad()
            output = module(batch)
            output["loss"].backward()
            torch.nn.utils.clip_grad_norm_(module.parameters(), self.grad_clip)
            optimizer.step()
            output["loss"] = output["loss"].detach()
            outputs.append(output)
        return module.training_epoch_end(outputs)
