import torch.nn as nn

from config import Config


class CellClassifier(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        layers, c_in = [], 3
        for c_out in cfg.channels:
            layers += [nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(), nn.MaxPool2d(2)]
            c_in = c_out
        self.features = nn.Sequential(*layers)
        side = cfg.image_size // 2 ** len(cfg.channels)
        self.classifier = nn.Linear(cfg.channels[-1] * side * side, cfg.num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))
