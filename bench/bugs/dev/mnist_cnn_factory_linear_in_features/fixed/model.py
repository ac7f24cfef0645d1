from dataclasses import dataclass, field

from torch import nn


@dataclass
class CNNConfig:
    in_channels: int = 1
    channels: list = field(default_factory=lambda: [16, 32])
    kernel_size: int = 5
    num_classes: int = 10


def conv_pool(c_in: int, c_out: int, kernel_size: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, kernel_size=kernel_size, stride=1, padding=kernel_size // 2),
        nn.ReLU(),
        nn.MaxPool2d(kernel_size=2),
    )


class CNN(nn.Module):
    def __init__(self, cfg: CNNConfig) -> None:
        super().__init__()
        blocks = []
        c_in = cfg.in_channels
        for c_out in cfg.channels:
            blocks.append(conv_pool(c_in, c_out, cfg.kernel_size))
            c_in = c_out
        self.features = nn.Sequential(*blocks)
        self.out = nn.Linear(32 * 7 * 7, cfg.num_classes)

    def forward(self, x):
        x = self.features(x)
        x = x.view(x.size(0), -1)
        return self.out(x), x


def build_model(name: str = "cnn") -> CNN:
    registry = {"cnn": CNNConfig(), "cnn-small": CNNConfig(channels=[8, 16])}
    return CNN(registry[name])
