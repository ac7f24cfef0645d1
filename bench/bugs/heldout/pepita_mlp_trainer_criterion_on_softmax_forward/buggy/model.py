import torch.nn as nn
import torch.nn.functional as F


class FullyConnectedNet(nn.Module):
    def __init__(self, in_features: int = 3 * 8 * 8, hidden: int = 128, num_classes: int = 10, p: float = 0.1):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.fc2 = nn.Linear(hidden, num_classes)
        self.dropout = nn.Dropout(p)

    def forward(self, x):
        x = self.dropout(F.relu(self.fc1(x.flatten(1))))
        return F.softmax(self.fc2(x), dim=1)
