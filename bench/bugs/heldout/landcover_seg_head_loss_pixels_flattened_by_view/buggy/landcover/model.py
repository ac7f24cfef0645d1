import torch.nn as nn

from landcover.heads import SegHead


def encoder_stage(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=2, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class LandCoverNet(nn.Module):
    def __init__(self, bands: int = 4, n_classes: int = 7, widths=(16, 32, 64), class_weights=None):
        super().__init__()
        stages, cin = [], bands
        for w in widths:
            stages.append(encoder_stage(cin, w))
            cin = w
        self.encoder = nn.Sequential(*stages)
        self.head = SegHead(cin, n_classes, class_weights)

    def forward(self, x):
        return self.head(self.encoder(x), x.shape[-2:])
