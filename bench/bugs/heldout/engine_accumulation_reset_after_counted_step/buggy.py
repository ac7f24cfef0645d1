import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


class Engine:
    def __init__(self, model, lr=1e-2, accumulation_steps=2):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.accumulation_steps = accumulation_steps
        self.criterion = nn.MSELoss()

    def train_one_epoch(self, data_loader):
        self.model.train()
        running = 0.0
        self.optimizer.zero_grad()
        for b_idx, (x, y) in enumerate(data_loader):
            loss = self.criterion(self.model(x), y) / self.accumulation_steps
            loss.backward()
            if (b_idx + 1) % self.accumulation_steps == 0:
                self.optimizer.step()
                self.optimizer.zero_grad()
            running += loss.item()
        return running / len(data_loader)


def main():
    torch.manual_seed(0)
    x = torch.randn(64, 12)
    y = x[:, :4].sum(dim=1, keepdim=True)
    loader = DataLoader(TensorDataset(x, y), batch_size=8)
    engine = Engine(Model())
    for epoch in range(2):
        print(f"epoch {epoch}: {engine.train_one_epoch(loader):.4f}")


if __name__ == "__main__":
    main()
