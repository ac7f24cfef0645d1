import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def evaluate(model, loader):
    model.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x).argmax(dim=1)
            if pred == y:
                correct += 1
            total += 1
    return correct / total


model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
test_set = TensorDataset(torch.randn(40, 10), torch.randint(0, 3, (40,)))
print("accuracy:", evaluate(model, DataLoader(test_set, batch_size=8)))
