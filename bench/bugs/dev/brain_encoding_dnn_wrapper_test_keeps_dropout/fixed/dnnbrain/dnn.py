import logging

import numpy as np
import torch
import torch.nn as nn

from dnnbrain.models import AlexNetLite

log = logging.getLogger(__name__)


class DNN:
    """A network plus the helpers the brain-encoding pipeline needs: fine-tuning and test-set scoring."""

    def __init__(self, num_classes=4):
        self.model = AlexNetLite(num_classes)
        self.criterion = nn.CrossEntropyLoss()

    def train(self, stimuli, labels, n_epoch=2, batch_size=8, lr=0.01):
        optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)
        self.model.train()
        for epoch in range(n_epoch):
            perm = torch.randperm(len(stimuli))
            for start in range(0, len(stimuli), batch_size):
                idx = perm[start:start + batch_size]
                loss = self.criterion(self.model(stimuli[idx]), labels[idx])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            log.info("epoch %d loss %.4f", epoch, loss.item())

    def test(self, stimuli, labels, batch_size=8):
        pred_labels = []
        self.model.eval()
        with torch.no_grad():
            for start in range(0, len(stimuli), batch_size):
                logits = self.model(stimuli[start:start + batch_size])
                pred_labels.append(logits.argmax(1).numpy())
        pred_labels = np.concatenate(pred_labels)
        return {"pred_label": pred_labels, "acc": float((pred_labels == labels.numpy()).mean())}
