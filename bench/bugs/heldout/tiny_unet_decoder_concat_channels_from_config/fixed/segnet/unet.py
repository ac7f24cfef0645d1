import torch.nn as nn

from .blocks import UpBlock, conv_block


class TinyUNet(nn.Module):
    def __init__(self, in_channels=1, num_classes=2, widths=(8, 16, 32)):
        super().__init__()
        self.downs = nn.ModuleList()
        c = in_channels
        for w in widths:
            self.downs.append(conv_block(c, w))
            c = w
        self.pool = nn.MaxPool2d(2)
        self.ups = nn.ModuleList()
        rev = list(widths)[::-1]
        for deep, skip in zip(rev[:-1], rev[1:]):
            self.ups.append(UpBlock(deep, skip, skip))
        self.classifier = nn.Conv2d(widths[0], num_classes, 1)

    def forward(self, x):
        skips = []
        for i, down in enumerate(self.downs):
            x = down(x)
            if i < len(self.downs) - 1:
                skips.append(x)
                x = self.pool(x)
        for up, skip in zip(self.ups, reversed(skips)):
            x = up(x, skip)
        return self.classifier(x)
