import torch.nn as nn


class Net(nn.Module):
    def __init__(self, dataset="mnist", hidden=64, num_classes=10):
        super().__init__()
        in_dim = 28 * 28 if dataset == "mnist" else 32 * 32 * 3
        self.fc1 = nn.Linear(in_dim, hidden)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(hidden, num_classes)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x.flatten(1))))
