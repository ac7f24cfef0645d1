import torch.nn as nn


class BasicBlock(nn.Module):
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.down = None
        if stride != 1 or c_in != c_out:
            self.down = nn.Sequential(nn.Conv2d(c_in, c_out, 1, stride, bias=False), nn.BatchNorm2d(c_out))

    def forward(self, x):
        identity = x if self.down is None else self.down(x)
        out = self.bn2(self.conv2(self.bn1(self.conv1(x)).relu()))
        return (out + identity).relu()


class SmallResNet(nn.Module):
    def __init__(self, widths=(16, 32, 64, 128)):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(3, widths[0], 7, 2, 3, bias=False), nn.BatchNorm2d(widths[0]), nn.ReLU())
        self.layer1 = BasicBlock(widths[0], widths[0], 1)
        self.layer2 = BasicBlock(widths[0], widths[1], 2)
        self.layer3 = BasicBlock(widths[1], widths[2], 2)
        self.layer4 = BasicBlock(widths[2], widths[3], 2)

    def forward(self, x, return_layers=("layer2", "layer3")):
        feats = {}
        x = self.conv1(x)
        for name in ("layer1", "layer2", "layer3", "layer4"):
            x = getattr(self, name)(x)
            if name in return_layers:
                feats[name] = x
            if name == return_layers[-1]:
                break
        return feats


def build_backbone(name: str = "resnet18_small"):
    if name == "resnet18_small":
        return SmallResNet()
    if name == "wide_resnet_small":
        return SmallResNet(widths=(32, 64, 128, 256))
    raise ValueError(name)
