import torch
from torch import nn


def make_features(cfg, in_channels=3):
    layers = []
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
        else:
            layers += [nn.Conv2d(in_channels, v, kernel_size=3, padding=1), nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)


class SmallVGG(nn.Module):
    """A VGG-style network cut down to run on CPU; the head expects a 7x7 map from 112-pixel crops."""

    def __init__(self, num_classes=5, cfg=(16, "M", 32, "M", 64, "M", 64, "M")):
        super().__init__()
        self.features = make_features(cfg)
        self.classifier = nn.Sequential(
            nn.Linear(64 * 7 * 7, 128),
            nn.ReLU(inplace=True),
            nn.Dropout(0.5),
            nn.Linear(128, num_classes),
        )

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        return self.classifier(x)
