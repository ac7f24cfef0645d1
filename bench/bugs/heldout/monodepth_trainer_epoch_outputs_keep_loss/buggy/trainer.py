import logging

import torch

log = logging.getLogger("trainer")


class BaseTrainer:
    def __init__(self, max_epochs=1, log_every=4):
        self.max_epochs = max_epochs
        self.log_every = log_every

    def fit(self, module, dataloader, optimizer):
        for epoch in range(self.max_epochs):
            outputs = self.train_epoch(module, dataloader, optimizer)
            self.training_epoch_end(epoch, outputs)

    def train_epoch(self, module, dataloader, optimizer):
        module.train()
        outputs = []
        for i, batch in enumerate(dataloader):
            optimizer.zero_grad()
            output = module(batch)
            output["loss"].backward()
            optimizer.step()
            outputs.append(output)
            if i % self.log_every == 0:
                log.info("iter %d loss %.4f", i, output["loss"].item())
        return outputs

    def training_epoch_end(self, epoch, outputs):
        avg = torch.stack([o["loss"] for o in outputs]).mean().item()
        photo = torch.stack([o["metrics"]["photometric"] for o in outputs]).mean().item()
        log.info("epoch %d avg loss %.4f photometric %.4f", epoch, avg, photo)
