import torch
import torch.nn as nn

from monitor import ActivationMonitor


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        return self.head(self.body(x))


def train_epoch(model, optimizer, batches):
    for x, y in batches:
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Net()
    monitor = ActivationMonitor(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(3)]
    print(train_epoch(model, optimizer, batches))
    print(monitor.dead_fraction())
    monitor.close()
