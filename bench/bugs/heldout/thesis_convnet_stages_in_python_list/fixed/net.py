import torch.nn as nn


class ConvBlock(nn.Module):
    def __init__(self, c_in, c_out, pool=True):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.bn = nn.BatchNorm2d(c_out)
        self.act = nn.LeakyReLU(0.1)
        self.pool = nn.MaxPool2d(2) if pool else nn.Identity()

    def forward(self, x):
        return self.pool(self.act(self.bn(self.conv(x))))


class SpectrogramNet(nn.Module):
    def __init__(self, channels=(1, 8, 16, 32), n_classes=6):
        super().__init__()
        self.stem = ConvBlock(channels[0], channels[1])
        self.my_modules = nn.ModuleList([ConvBlock(c_in, c_out) for c_in, c_out in zip(channels[1:-1], channels[2:])])
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(channels[-1], n_classes)

    def forward(self, x):
        x = self.stem(x)
        for block in self.my_modules:
            x = block(x)
        return self.fc(self.pool(x).flatten(1))
