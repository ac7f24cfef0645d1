import torch.nn as nn


class SceneNet(nn.Module):
    """Small VGG-like classifier for 13-band Sentinel-2 patches."""

    def __init__(self, bands: int = 13, n_classes: int = 10, widths=(32, 64)):
        super().__init__()
        layers, cin = [], bands
        for w in widths:
            layers += [nn.Conv2d(cin, w, 3, padding=1), nn.BatchNorm2d(w), nn.ReLU(), nn.MaxPool2d(2)]
            cin = w
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.3), nn.Linear(cin, n_classes))

    def forward(self, x):
        return self.classifier(self.features(x))
