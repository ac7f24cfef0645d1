import torch
import torch.nn as nn


class DomainClassifier(nn.Module):
    def __init__(self, n_in=32, n_domains=2):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, n_domains))

    def forward(self, feats):
        return self.layers(feats)


class Trainer:
    def __init__(self, model, criterion):
        self.model, self.criterion = model, criterion
        self.opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def step(self, feats, domains):
        loss = self.criterion(self.model(feats), domains)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


trainer = Trainer(DomainClassifier(), nn.CrossEntropyLoss())
for i in range(2):
    print(trainer.step(torch.randn(16, 32), torch.randint(0, 2, (16,))))
