import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


class Trainable:
    def __init__(self, model, batch_size=8, num_epochs=3, lr=0.01, world_size=2):
        self.model = model
        self.batch_size = batch_size
        self.num_epochs = num_epochs
        self.world_size = world_size
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)

    def _get_dataloader(self, data, sampler):
        return DataLoader(data, batch_size=self.batch_size, shuffle=False, sampler=sampler, drop_last=True)

    def _train_epoch(self, rank, train_data_loader):
        self.model.train()
        running_loss, running_acc = 0.0, 0.0
        for inputs, labels in train_data_loader:
            self.optimizer.zero_grad()
            outputs = self.model(inputs)
            loss = self.criterion(outputs, labels)
            loss.backward()
            self.optimizer.step()
            running_loss += loss.item()
            running_acc += (outputs.argmax(dim=1) == labels).float().mean().item()
        n = len(train_data_loader)
        return running_loss / n, running_acc / n

    def _do_train(self, rank, train_data):
        sampler = DistributedSampler(train_data, num_replicas=self.world_size, rank=rank, shuffle=True, seed=0)
        train_data_loader = self._get_dataloader(train_data, sampler)
        for epoch in range(self.num_epochs):
            train_loss, train_acc = self._train_epoch(rank, train_data_loader)
            print(f"rank {rank} epoch {epoch}: loss {train_loss:.4f} acc {train_acc:.3f}")
