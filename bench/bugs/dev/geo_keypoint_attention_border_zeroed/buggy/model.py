import torch.nn as nn

from blocks import KeypointAttention


class ViewEncoder(nn.Module):
    def __init__(self, n_classes, width=16, polish=True):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.att1 = KeypointAttention(width, polish=polish)
        self.stage2 = nn.Sequential(nn.Conv2d(width, 2 * width, 3, stride=2, padding=1), nn.ReLU())
        self.att2 = KeypointAttention(2 * width, polish=polish)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(2 * width, n_classes)

    def forward(self, x):
        x = self.att1(self.stage1(x))
        x = self.att2(self.stage2(x))
        return self.classifier(self.pool(x).flatten(1))
