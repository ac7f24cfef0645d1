import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stages = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.ReLU()),
        ])

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class FPN(nn.Module):
    def __init__(self, in_channels=(32, 64, 128), out_channels=48):
        super().__init__()
        self.lateral = nn.ModuleList([nn.Conv2d(c, out_channels, 1) for c in in_channels])

    def forward(self, feats):
        laterals = [conv(f) for conv, f in zip(self.lateral, feats)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] = laterals[i - 1] + F.interpolate(laterals[i], size=laterals[i - 1].shape[-2:])
        return laterals


backbone, fpn = Backbone(), FPN()
pyramid = fpn(backbone(torch.randn(2, 3, 64, 64)))
print([p.shape for p in pyramid])
