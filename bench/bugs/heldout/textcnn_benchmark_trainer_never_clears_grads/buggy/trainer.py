import logging
import time

import torch
import torch.nn as nn

log = logging.getLogger("trainer")


class Trainer:
    def __init__(self, model, lr=1e-3, log_every=2):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.loss_fn = nn.CrossEntropyLoss()
        self.log_every = log_every
        self.global_step = 0

    def train_epoch(self, batches):
        self.model.train()
        start = time.time()
        for tokens, labels in batches:
            logits = self.model(tokens)
            loss = self.loss_fn(logits, labels)
            loss.backward()
            self.opt.step()
            self.global_step += 1
            if self.global_step % self.log_every == 0:
                log.info("step %d loss %.4f (%.2fs)", self.global_step, loss.item(), time.time() - start)

    @torch.no_grad()
    def evaluate(self, batches):
        self.model.eval()
        correct = total = 0
        for tokens, labels in batches:
            correct += (self.model(tokens).argmax(1) == labels).sum().item()
            total += labels.numel()
        return correct / max(total, 1)
