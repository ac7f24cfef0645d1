import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, in_dim=8, hidden=32, n_classes=3, drop=0.1):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(drop))
        self.fc = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.fc(self.body(x))
