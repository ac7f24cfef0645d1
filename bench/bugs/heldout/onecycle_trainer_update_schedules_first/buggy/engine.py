import torch


class Engine:
    def __init__(self, model, criterion, optimizer, scheduler, clip=1.0):
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.clip = clip
        self.lrs = []

    def _update(self, loss):
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.scheduler.step()
        self.optimizer.step()
        self.lrs.append(self.scheduler.get_last_lr()[0])

    def train_one_epoch(self, loader):
        self.model.train()
        for inputs, targets in loader:
            loss = self.criterion(self.model(inputs), targets)
            self._update(loss)
        return loss.item()
