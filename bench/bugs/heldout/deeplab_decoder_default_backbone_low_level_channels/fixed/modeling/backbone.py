import torch.nn as nn


def conv_bn(c_in, c_out, stride):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU6(inplace=True))


class MobileNetLite(nn.Module):
    low_level_channels = 24

    def __init__(self):
        super().__init__()
        self.low_level_features = nn.Sequential(conv_bn(3, 16, 2), conv_bn(16, 24, 2))
        self.high_level_features = nn.Sequential(conv_bn(24, 32, 2), conv_bn(32, 64, 1))

    def forward(self, x):
        low_level_feat = self.low_level_features(x)
        return self.high_level_features(low_level_feat), low_level_feat


class ResNetLite(nn.Module):
    low_level_channels = 256

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(conv_bn(3, 64, 2), conv_bn(64, 256, 2))
        self.layer = nn.Sequential(conv_bn(256, 64, 2))

    def forward(self, x):
        low_level_feat = self.stem(x)
        return self.layer(low_level_feat), low_level_feat


def build_backbone(backbone):
    if backbone == "mobilenet":
        return MobileNetLite()
    if backbone == "resnet":
        return ResNetLite()
    raise NotImplementedError(backbone)
