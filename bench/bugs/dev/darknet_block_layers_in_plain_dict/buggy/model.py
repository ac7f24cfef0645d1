import torch.nn as nn

BACKBONE = [
    {"filters": 16, "blocks": 1},
    {"filters": 32, "blocks": 2},
]


class ConvBNLeaky(nn.Module):
    def __init__(self, c_in, c_out, kernel_size, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, kernel_size, stride, kernel_size // 2, bias=False)
        self.bn = nn.BatchNorm2d(c_out)
        self.act = nn.LeakyReLU(0.1)

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class DarknetBlock(nn.Module):
    """Residual unit: a 1x1 squeeze then a 3x3 expand, added to the input."""

    def __init__(self, layer_specs, skip=True):
        super().__init__()
        self.skip = skip
        self.block = {}
        for spec in layer_specs:
            self.block[spec["id"]] = ConvBNLeaky(spec["in"], spec["out"], spec["k"])

    def forward(self, x):
        out = x
        for layer in self.block.values():
            out = layer(out)
        return x + out if self.skip else out


def residual_specs(channels, index):
    return [
        {"id": f"conv{index}_reduce", "in": channels, "out": channels // 2, "k": 1},
        {"id": f"conv{index}_expand", "in": channels // 2, "out": channels, "k": 3},
    ]


class Darknet(nn.Module):
    def __init__(self, num_classes=5, stages=BACKBONE):
        super().__init__()
        layers = [ConvBNLeaky(3, 8, 3)]
        c_in = 8
        for stage in stages:
            layers.append(ConvBNLeaky(c_in, stage["filters"], 3, stride=2))
            for i in range(stage["blocks"]):
                layers.append(DarknetBlock(residual_specs(stage["filters"], i)))
            c_in = stage["filters"]
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(c_in, num_classes)

    def forward(self, x):
        return self.head(self.body(x).mean(dim=(2, 3)))
