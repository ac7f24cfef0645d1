import logging

import torch.nn.functional as F

log = logging.getLogger(__name__)


class Trainer:
    def __init__(self, model, optimizer, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = list(callbacks)
        self.epoch = 0
        self.global_step = 0

    def fire(self, event):
        for cb in self.callbacks:
            getattr(cb, event)(self)

    def fit(self, loader, epochs):
        self.fire("on_train_start")
        for self.epoch in range(epochs):
            self.model.train()
            running = 0.0
            for atoms, adj, mask, target in loader:
                pred = self.model(atoms, adj, mask)
                loss = F.smooth_l1_loss(pred, target)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.global_step += 1
                running += loss.item()
                self.fire("on_train_batch_end")
            log.info("epoch %d train loss %.4f", self.epoch, running / len(loader))
            self.fire("on_epoch_end")
