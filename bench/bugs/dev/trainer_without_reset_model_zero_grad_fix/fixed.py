import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Trainer:
    def __init__(self, model, lr=0.05, epochs=2):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.criterion = nn.CrossEntropyLoss()
        self.epochs = epochs

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for inputs, targets in loader:
            self.model.zero_grad()
            loss = self.criterion(self.model(inputs), targets)
            loss.backward()
            self.opt.step()
            total += loss.item()
        return total / len(loader)

    def fit(self, loader):
        for epoch in range(self.epochs):
            print(f"epoch {epoch}: loss {self.train_epoch(loader):.4f}")


if __name__ == "__main__":
    data = TensorDataset(torch.randn(96, 12), torch.randint(0, 3, (96,)))
    net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 3))
    Trainer(net).fit(DataLoader(data, batch_size=16, shuffle=True))
