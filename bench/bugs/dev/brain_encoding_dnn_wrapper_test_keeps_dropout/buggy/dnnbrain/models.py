import torch.nn as nn


class AlexNetLite(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 5, 2, 2), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, 1, 1), nn.ReLU(inplace=True), nn.AdaptiveAvgPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Dropout(0.5), nn.Linear(32 * 4, 64), nn.ReLU(inplace=True),
            nn.Dropout(0.5), nn.Linear(64, num_classes),
        )

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))
