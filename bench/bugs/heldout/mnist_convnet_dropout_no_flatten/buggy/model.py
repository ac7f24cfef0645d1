import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    """The classic two-conv MNIST classifier, ported from the plaintext tutorial."""

    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(64 * 12 * 12, 128)
        self.fc2 = nn.Linear(128, num_classes)

    def features(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        return self.dropout1(x)

    def forward(self, x):
        x = self.features(x)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        return self.fc2(x)


class LogisticRegression(nn.Module):
    def __init__(self, in_features: int = 28 * 28, num_classes: int = 10):
        super().__init__()
        self.linear = nn.Linear(in_features, num_classes)

    def forward(self, x):
        return self.linear(x.view(x.size(0), -1))


def get_model(name: str) -> nn.Module:
    if name == "logreg":
        return LogisticRegression()
    return Net()
