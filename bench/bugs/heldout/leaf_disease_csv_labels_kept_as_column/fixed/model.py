import torch.nn as nn
import torch.nn.functional as F


class ClassifierHead(nn.Module):
    def __init__(self, in_features, n_classes, label_smoothing=0.0):
        super().__init__()
        self.fc = nn.Linear(in_features, n_classes)
        self.label_smoothing = label_smoothing

    def forward(self, h):
        return self.fc(h)

    def loss(self, logits, target):
        return F.cross_entropy(logits, target, label_smoothing=self.label_smoothing)


class LeafNet(nn.Module):
    def __init__(self, n_features=10, hidden=32, n_classes=7):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Linear(n_features, hidden), nn.ReLU(), nn.Dropout(0.2), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.head = ClassifierHead(hidden, n_classes, label_smoothing=0.05)

    def forward(self, x):
        return self.head(self.backbone(x))
