import torch
import torch.nn.functional as F
from torch import nn


class BasicBlock(nn.Module):
    def __init__(self, c_in: int, c_out: int, stride: int) -> None:
        super().__init__()
        self.bn1 = nn.BatchNorm2d(c_in)
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.shortcut = None if c_in == c_out and stride == 1 else nn.Conv2d(c_in, c_out, 1, stride, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        o = F.relu(self.bn1(x))
        y = self.conv2(F.relu(self.bn2(self.conv1(o))))
        return y + (x if self.shortcut is None else self.shortcut(o))


class WideResNet(nn.Module):
    def __init__(self, depth: int = 10, num_classes: int = 10, widen_factor: int = 1) -> None:
        super().__init__()
        n = (depth - 4) // 6
        widths = [16, 16 * widen_factor, 32 * widen_factor, 64 * widen_factor]
        self.conv1 = nn.Conv2d(3, widths[0], 3, 1, 1, bias=False)
        layers, c_in = [], widths[0]
        for width, stride in zip(widths[1:], (1, 2, 2)):
            for i in range(n):
                layers.append(BasicBlock(c_in, width, stride if i == 0 else 1))
                c_in = width
        self.blocks = nn.Sequential(*layers)
        self.bn = nn.BatchNorm2d(c_in)
        self.fc = nn.Linear(c_in, num_classes)
        self.n_channels = c_in

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = F.relu(self.bn(self.blocks(self.conv1(x))))
        out = F.adaptive_avg_pool2d(out, 1)
        out = out.view(-1, self.n_channels)
        return self.fc(out)
