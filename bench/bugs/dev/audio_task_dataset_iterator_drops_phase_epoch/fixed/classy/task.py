import logging

import torch
import torch.nn as nn

log = logging.getLogger(__name__)


class ClassificationTask:
    def __init__(self, model, dataset, num_epochs, lr=0.05):
        self.model = model
        self.dataset = dataset
        self.num_epochs = num_epochs
        self.loss = nn.CrossEntropyLoss(label_smoothing=0.1)
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True)
        self.phase_idx = 0

    def train_phase(self):
        self.model.train()
        correct = seen = 0
        for sample in self.dataset.iterator(current_phase_id=self.phase_idx):
            output = self.model(sample["input"])
            loss = self.loss(output, sample["target"])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            correct += (output.argmax(1) == sample["target"]).sum().item()
            seen += len(sample["target"])
        log.info("phase %d train acc %.3f", self.phase_idx, correct / seen)

    def run(self):
        for self.phase_idx in range(self.num_epochs):
            self.train_phase()
