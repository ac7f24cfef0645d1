import torch
import torch.nn as nn


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value, n=1):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class NormalNN(nn.Module):
    """Class-incremental learner: one backbone, a head that grows with each task."""

    def __init__(self, model, device="cpu", lr=0.01):
        super().__init__()
        self.model = model
        self.device = device
        self.criterion_fn = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)

    def learn_batch(self, loader, epochs=1):
        for _ in range(epochs):
            self.model.train()
            for x, y, _task in loader:
                loss = self.criterion_fn(self.model(x.to(self.device)), y.to(self.device))
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

    def validation(self, dataloader):
        self.model.eval()
        acc = AverageMeter()
        for input, target, task in dataloader:
            with torch.no_grad():
                input = input.to(self.device)
                target = target.to(self.device)
                output = self.model(input)
            acc.update((output.argmax(1) == target).float().mean().item(), len(target))
        return acc.avg
