import torch.nn as nn


def conv_block(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2))


class Conv4(nn.Module):
    def __init__(self, channels: int = 16, out_dim: int = 32) -> None:
        super().__init__()
        self.net = nn.Sequential(conv_block(3, channels), conv_block(channels, channels),
                                 conv_block(channels, channels), conv_block(channels, out_dim))

    def forward(self, x):
        return self.net(x).flatten(1)
