import torch.nn as nn


class OrdinalMLP(nn.Module):
    def __init__(self, in_features, num_classes, hidden=(64, 32), dropout=0.2):
        super().__init__()
        layers = []
        prev = in_features
        for width in hidden:
            layers += [nn.Linear(prev, width), nn.BatchNorm1d(width), nn.ReLU(), nn.Dropout(dropout)]
            prev = width
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(prev, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x))
