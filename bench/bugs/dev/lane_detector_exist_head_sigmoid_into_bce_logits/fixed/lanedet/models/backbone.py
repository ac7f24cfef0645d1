import torch.nn as nn


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyBackbone(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.stages = nn.Sequential(conv_bn(3, width, 2), conv_bn(width, width * 2, 2), conv_bn(width * 2, width * 2))
        self.out_channels = width * 2

    def forward(self, x):
        return self.stages(x)
