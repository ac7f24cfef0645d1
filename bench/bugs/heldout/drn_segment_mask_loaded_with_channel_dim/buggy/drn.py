import torch.nn as nn


def conv_bn(c_in, c_out, dilation=1):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=dilation, dilation=dilation, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True)
    )


class DRNSeg(nn.Module):
    def __init__(self, classes=3, channels=(16, 32, 32), dilations=(1, 2, 4)):
        super().__init__()
        layers, c_in = [], 3
        for c, d in zip(channels, dilations):
            layers.append(conv_bn(c_in, c, d))
            c_in = c
        self.base = nn.Sequential(*layers)
        self.seg = nn.Conv2d(c_in, classes, 1)

    def forward(self, x):
        return self.seg(self.base(x))
