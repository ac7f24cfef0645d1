import torch.nn as nn
import torch.nn.functional as F


def conv_relu(c_in, c_out, k=3):
    return nn.Sequential(nn.Conv2d(c_in, c_out, k, padding=k // 2), nn.ReLU(inplace=True))


class Backbone(nn.Module):
    def __init__(self, widths=(8, 16, 32)):
        super().__init__()
        self.stages = nn.ModuleList()
        c_in = 3
        for w in widths:
            self.stages.append(nn.Sequential(conv_relu(c_in, w), nn.MaxPool2d(2)))
            c_in = w

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class FPNHead(nn.Module):
    def __init__(self, in_channels=(8, 16, 32), channels=16, num_categories=6):
        super().__init__()
        self.lateral_convs = nn.ModuleList(conv_relu(c, channels, k=1) for c in in_channels)
        self.fpn_convs = nn.ModuleList(conv_relu(channels, channels) for _ in in_channels)
        self.density = nn.Conv2d(channels, num_categories, 1)

    def forward(self, inputs):
        laterals = [lateral(inputs[i]) for i, lateral in enumerate(self.lateral_convs)]
        for i in range(len(laterals) - 1, 0, -1):
            prev_shape = laterals[i - 1].shape[2:]
            laterals[i - 1] += F.interpolate(laterals[i], size=prev_shape, mode="nearest")
        outs = [self.fpn_convs[i](laterals[i]) for i in range(len(laterals))]
        return F.relu(self.density(outs[0]))


class MultiCategoryCounter(nn.Module):
    def __init__(self, num_categories=6):
        super().__init__()
        self.backbone = Backbone()
        self.head = FPNHead(num_categories=num_categories)

    def forward(self, x):
        return self.head(self.backbone(x))
