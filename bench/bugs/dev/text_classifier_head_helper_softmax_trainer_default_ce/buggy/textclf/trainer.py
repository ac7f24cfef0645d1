import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Trainer:
    def __init__(self, model, optimizer, train_loader, valid_loader, criterion=nn.CrossEntropyLoss(), log_every=5):
        self.model = model
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.valid_loader = valid_loader
        self.criterion = criterion
        self.log_every = log_every
        self.best_acc = 0.0

    def train_epoch(self, epoch):
        self.model.train()
        running = 0.0
        for step, (input_ids, attention_mask, labels) in enumerate(self.train_loader):
            self.optimizer.zero_grad()
            output = self.model(input_ids=input_ids, attention_mask=attention_mask)
            loss = self.criterion(output, labels)
            loss.backward()
            self.optimizer.step()
            running += loss.item()
            if (step + 1) % self.log_every == 0:
                logger.info("epoch %d step %d loss %.4f", epoch, step + 1, running / self.log_every)
                running = 0.0

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        correct, total = 0, 0
        for input_ids, attention_mask, labels in self.valid_loader:
            output = self.model(input_ids=input_ids, attention_mask=attention_mask)
            correct += (output.argmax(dim=1) == labels).sum().item()
            total += labels.numel()
        return correct / total

    def fit(self, epochs):
        for epoch in range(epochs):
            self.train_epoch(epoch)
            acc = self.evaluate()
            self.best_acc = max(self.best_acc, acc)
            logger.info("epoch %d valid acc %.3f (best %.3f)", epoch, acc, self.best_acc)
        return self.best_acc
