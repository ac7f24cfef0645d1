import torch.nn as nn


class BirdCallCNN(nn.Module):
    """Conv blocks over (mels, frames), then a dense classifier on the flattened map."""

    def __init__(self, n_classes: int, channels=(16, 32, 64), n_mels: int = 40, n_frames: int = 130,
                 dropout: float = 0.3):
        super().__init__()
        blocks, cin = [], 1
        for cout in channels:
            blocks += [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2)]
            cin = cout
        self.features = nn.Sequential(*blocks)
        shrink = 2 ** len(channels)
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Dropout(dropout),
            nn.Linear(cin * (n_mels // shrink) * (n_frames // shrink), 128), nn.ReLU(), nn.Linear(128, n_classes))

    def forward(self, spec):
        return self.classifier(self.features(spec))
