import torch.nn as nn


def conv_block(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, kernel_size=3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(2),
    )


class CactusNet(nn.Module):
    def __init__(self, widths=(16, 32, 64), num_classes: int = 2, in_channels: int = 3):
        super().__init__()
        blocks, c_in = [], in_channels
        for w in widths:
            blocks.append(conv_block(c_in, w))
            c_in = w
        self.features = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(c_in, num_classes))

    def forward(self, x):
        return self.head(self.pool(self.features(x)))
