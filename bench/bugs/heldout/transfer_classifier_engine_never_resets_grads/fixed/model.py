import torch.nn as nn


class FeatureExtractor(nn.Sequential):
    def __init__(self, channels=(3, 16, 32)):
        layers = []
        for c_in, c_out in zip(channels[:-1], channels[1:]):
            layers += [nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(), nn.MaxPool2d(2)]
        layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten()]
        super().__init__(*layers)
        self.out_features = channels[-1]


class FlowerClassifier(nn.Module):
    def __init__(self, n_classes=5, hidden=64, freeze_features=True):
        super().__init__()
        self.features = FeatureExtractor()
        if freeze_features:
            for p in self.features.parameters():
                p.requires_grad = False
        self.classifier = nn.Sequential(
            nn.Linear(self.features.out_features, hidden), nn.ReLU(), nn.Dropout(0.2), nn.Linear(hidden, n_classes)
        )

    def forward(self, x):
        return self.classifier(self.features(x))
