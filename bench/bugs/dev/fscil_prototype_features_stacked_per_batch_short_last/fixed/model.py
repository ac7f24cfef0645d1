import torch.nn as nn
import torch.nn.functional as F


class ConvEncoder(nn.Module):
    def __init__(self, out_dim=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, out_dim, 3, padding=1), nn.BatchNorm2d(out_dim), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )

    def forward(self, x):
        return self.net(x)


class IncrementalNet(nn.Module):
    """Cosine classifier over an encoder; new sessions add classes by writing their prototypes into fc."""

    def __init__(self, num_classes=20, feat_dim=64, temperature=16.0):
        super().__init__()
        self.feat_dim = feat_dim
        self.encoder = ConvEncoder(feat_dim)
        self.fc = nn.Linear(feat_dim, num_classes, bias=False)
        self.temperature = temperature

    def encode(self, x):
        return self.encoder(x)

    def forward(self, x):
        feats = F.normalize(self.encode(x), dim=-1)
        return self.temperature * F.linear(feats, F.normalize(self.fc.weight, dim=-1))
