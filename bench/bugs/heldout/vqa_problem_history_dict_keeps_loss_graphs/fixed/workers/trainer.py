import logging
from collections import defaultdict

import torch
import torch.nn.functional as F

logger = logging.getLogger("worker")


class OnlineTrainer:
    def __init__(self, model, optimizer, log_interval=4):
        self.model = model
        self.optimizer = optimizer
        self.log_interval = log_interval
        self.history = defaultdict(list)

    def train_step(self, batch):
        img, question, answer = batch
        self.optimizer.zero_grad()
        logits = self.model(img, question)
        loss = F.cross_entropy(logits, answer)
        loss.backward()
        self.optimizer.step()
        acc = (logits.argmax(1) == answer).float().mean()
        self.history["loss"].append(loss.item())
        self.history["acc"].append(acc.item())
        return loss

    def run(self, batches, episodes):
        for episode in range(episodes):
            for i, batch in enumerate(batches):
                self.train_step(batch)
                if (i + 1) % self.log_interval == 0:
                    recent = self.history["loss"][-self.log_interval:]
                    logger.info("ep %d it %d loss %.4f", episode, i, sum(float(l) for l in recent) / len(recent))
