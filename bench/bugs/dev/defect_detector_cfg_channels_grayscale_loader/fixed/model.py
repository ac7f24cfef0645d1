import torch
import torch.nn as nn


def create_modules(layer_defs, in_channels):
    module_list = nn.ModuleList()
    channels = in_channels
    for kind, filters, kernel, stride in layer_defs:
        block = nn.Sequential()
        if kind == "conv":
            block.add_module("conv", nn.Conv2d(channels, filters, kernel, stride, padding=kernel // 2, bias=False))
            block.add_module("bn", nn.BatchNorm2d(filters))
            block.add_module("act", nn.LeakyReLU(0.1))
            channels = filters
        elif kind == "maxpool":
            block.add_module("pool", nn.MaxPool2d(kernel, stride))
        module_list.append(block)
    return module_list, channels


class DefectNet(nn.Module):
    def __init__(self, layer_defs, net_cfg):
        super().__init__()
        self.module_list, out_channels = create_modules(layer_defs, net_cfg["channels"])
        self.classifier = nn.Linear(out_channels, net_cfg["num_classes"])

    def forward(self, x):
        for block in self.module_list:
            x = block(x)
        return self.classifier(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))
