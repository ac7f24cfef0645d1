import torch.nn as nn


def double_conv(in_channels: int, out_channels: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1, bias=False),
        nn.BatchNorm2d(out_channels),
        nn.ReLU(inplace=True),
        nn.Conv2d(out_channels, out_channels, kernel_size=3, padding=1, bias=False),
        nn.BatchNorm2d(out_channels),
        nn.ReLU(inplace=True),
    )


def up(in_channels: int, out_channels: int) -> nn.Sequential:
    return nn.Sequential(
        nn.ConvTranspose2d(in_channels, out_channels, kernel_size=2, stride=2),
        double_conv(out_channels, out_channels),
    )


class SegNet(nn.Module):
    def __init__(self, in_channels: int = 3, num_classes: int = 2, channels: tuple[int, ...] = (16, 32, 64)):
        super().__init__()
        self.encoder = nn.ModuleList()
        prev = in_channels
        for ch in channels:
            self.encoder.append(double_conv(prev, ch))
            prev = ch
        self.pool = nn.MaxPool2d(2)
        self.decoder = nn.ModuleList(up(channels[i], channels[i - 1]) for i in range(len(channels) - 1, 0, -1))
        self.head = nn.Conv2d(channels[0], num_classes, kernel_size=1)

    def forward(self, x):
        for i, block in enumerate(self.encoder):
            x = block(x)
            if i < len(self.encoder) - 1:
                x = self.pool(x)
        for stage in self.decoder:
            x = stage(x)
        return self.head(x)
