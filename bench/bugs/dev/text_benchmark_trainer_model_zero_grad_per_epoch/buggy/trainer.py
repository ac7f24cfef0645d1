import logging
import time

import torch
from torch import nn

logger = logging.getLogger(__name__)


class ClassifierTrainer:
    def __init__(self, model, opt):
        self.model = model
        self.opt_cfg = opt
        self.opt = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=opt.learning_rate)
        self.loss_fun = nn.CrossEntropyLoss()
        self.global_step = 0

    def train_epoch(self, loader, epoch):
        self.model.train()
        self.model.zero_grad()
        start, total = time.time(), 0.0
        for tokens, labels in loader:
            logits = self.model(tokens)
            loss = self.loss_fun(logits, labels)
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), self.opt_cfg.grad_clip)
            self.opt.step()
            self.global_step += 1
            total += loss.item()
        logger.info("epoch %d: loss %.4f (%.1fs)", epoch, total / len(loader), time.time() - start)

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        correct = total = 0
        for tokens, labels in loader:
            correct += (self.model(tokens).argmax(1) == labels).sum().item()
            total += labels.numel()
        return correct / total
