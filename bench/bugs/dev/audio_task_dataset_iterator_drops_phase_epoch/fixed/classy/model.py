import torch.nn as nn


class AudioCNN(nn.Module):
    def __init__(self, num_classes=4, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(2 * width, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))
