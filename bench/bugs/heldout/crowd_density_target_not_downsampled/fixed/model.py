import torch.nn as nn


def make_layers(cfg, in_channels=3, dilation=False):
    d_rate = 2 if dilation else 1
    layers = []
    for v in cfg:
        if v == "M":
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            layers += [nn.Conv2d(in_channels, v, kernel_size=3, padding=d_rate, dilation=d_rate), nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)


class CSRNet(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.frontend_feat = [width, width, "M", 2 * width, 2 * width, "M", 4 * width, 4 * width, "M", 8 * width]
        self.backend_feat = [8 * width, 8 * width, 4 * width, 2 * width]
        self.frontend = make_layers(self.frontend_feat)
        self.backend = make_layers(self.backend_feat, in_channels=8 * width, dilation=True)
        self.output_layer = nn.Conv2d(2 * width, 1, kernel_size=1)

    def forward(self, x):
        x = self.frontend(x)
        x = self.backend(x)
        return self.output_layer(x)
