import torch.nn as nn


def conv_bn(c_in, c_out, stride=1):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


def build_backbone(widths=(16, 32, 64)):
    layers, c_in = [], 3
    for w in widths:
        layers += [conv_bn(c_in, w, stride=2), conv_bn(w, w)]
        c_in = w
    return nn.Sequential(*layers), c_in
