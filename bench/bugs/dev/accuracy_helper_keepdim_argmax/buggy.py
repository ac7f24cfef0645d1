import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def accuracy(output, target):
    pred = output.argmax(dim=1, keepdim=True)
    return (pred == target).float().mean().item()


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 64)
        self.fc2 = nn.Linear(64, 5)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def validate(model, loader):
    model.eval()
    total_acc, batches = 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            output = model(x)
            total_acc += accuracy(output, y)
            batches += 1
    return total_acc / batches


if __name__ == "__main__":
    data = TensorDataset(torch.randn(128, 20), torch.randint(0, 5, (128,)))
    loader = DataLoader(data, batch_size=64)
    model = MLP()
    print(f"val acc {validate(model, loader):.3f}")
