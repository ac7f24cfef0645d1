import logging

import torch
import torch.nn as nn

logger = logging.getLogger(__name__)


class FaceTrainer:
    def __init__(self, model, metric_fc, lr=0.05, weight_decay=5e-4):
        self.model = model
        self.metric_fc = metric_fc
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(
            [{"params": model.parameters()}, {"params": metric_fc.parameters()}],
            lr=lr, momentum=0.9, weight_decay=weight_decay,
        )

    def train_step(self, images, labels):
        embeddings = self.model(images)
        logits = self.metric_fc(embeddings, labels)
        loss = self.criterion(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        return loss.item(), acc

    def train(self, loader, epochs):
        self.model.train()
        for epoch in range(epochs):
            for images, labels in loader:
                loss, acc = self.train_step(images, labels)
            logger.info("epoch %d loss %.3f acc %.3f", epoch, loss, acc)
