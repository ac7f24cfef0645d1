import torch
from torch.utils.data.distributed import DistributedSampler


class SupervisedRunner:
    def __init__(self, model, criterion, optimizer):
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer
        self.epoch = 0
        self.metrics = {}

    def _prepare_loader(self, loader):
        # shuffling samplers in distributed mode reseed from the epoch number
        if isinstance(loader.sampler, DistributedSampler):
            loader.sampler.set_epoch(self.epoch)
        return loader

    def _run_loader(self, name, loader):
        is_train = name == "train"
        self.model.train(is_train)
        total, n = 0.0, 0
        with torch.set_grad_enabled(is_train):
            for features, targets in self._prepare_loader(loader):
                loss = self.criterion(self.model(features), targets)
                if is_train:
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
                total += loss.item() * len(targets)
                n += len(targets)
        self.metrics[f"{name}_loss"] = total / n

    def train(self, loaders, num_epochs):
        for self.epoch in range(num_epochs):
            for name, loader in loaders.items():
                self._run_loader(name, loader)
            print(f"epoch {self.epoch}: " + ", ".join(f"{k}={v:.4f}" for k, v in self.metrics.items()))
