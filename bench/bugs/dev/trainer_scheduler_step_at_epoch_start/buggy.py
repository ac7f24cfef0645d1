import torch
import torch.nn as nn
import torch.nn.functional as F


class ReIDTrainer:
    def __init__(self, model, batches, epochs=3):
        self.model = model
        self.batches = batches
        self.epochs = epochs
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=1, gamma=0.5)

    def on_epoch_start(self):
        self.scheduler.step()

    def fit(self):
        for epoch in range(self.epochs):
            self.on_epoch_start()
            for x, y in self.batches:
                loss = F.cross_entropy(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print(epoch, self.scheduler.get_last_lr()[0], loss.item())


data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(3)]
ReIDTrainer(nn.Linear(16, 4), data).fit()
