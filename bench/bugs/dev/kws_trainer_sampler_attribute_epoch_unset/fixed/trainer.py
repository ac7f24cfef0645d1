import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


class Trainer:
    def __init__(self, model, train_set, hp):
        self.model = model
        self.hp = hp
        self.train_sampler = DistributedSampler(
            train_set, num_replicas=hp.world_size, rank=hp.rank, shuffle=True, seed=hp.seed
        )
        self.train_loader = DataLoader(train_set, batch_size=hp.batch_size, sampler=self.train_sampler, drop_last=True)
        self.optimizer = torch.optim.Adam(model.parameters(), lr=hp.lr)
        self.criterion = nn.CrossEntropyLoss()
        self.epoch = 0
        self.steps = 0

    def _train_epoch(self):
        self.model.train()
        correct = total = 0
        for mels, labels in self.train_loader:
            logits = self.model(mels)
            loss = self.criterion(logits, labels)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.steps += 1
            correct += (logits.argmax(-1) == labels).sum().item()
            total += labels.numel()
        return correct / max(total, 1)

    def run(self):
        while self.epoch < self.hp.epochs:
            self.train_sampler.set_epoch(self.epoch)
            acc = self._train_epoch()
            if self.hp.rank == 0:
                print(f"epoch {self.epoch} steps {self.steps} train acc {acc:.3f}")
            self.epoch += 1
