import torch.nn as nn


def conv_bn(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class LiteEncoder(nn.Module):
    out_channels = 64

    def __init__(self, in_channels: int = 4) -> None:
        super().__init__()
        self.layers = nn.Sequential(conv_bn(in_channels, 32, 2), conv_bn(32, 64, 2), conv_bn(64, 64))

    def forward(self, x):
        return self.layers(x)


class WideEncoder(nn.Module):
    out_channels = 128

    def __init__(self, in_channels: int = 4) -> None:
        super().__init__()
        self.layers = nn.Sequential(conv_bn(in_channels, 64, 2), conv_bn(64, 128, 2), conv_bn(128, 128))

    def forward(self, x):
        return self.layers(x)


BACKBONES = {"lite": LiteEncoder, "wide": WideEncoder}
