import torch
import torch.nn as nn


class DenseLayer(nn.Module):
    def __init__(self, cin: int, growth: int):
        super().__init__()
        self.body = nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU(), nn.Conv2d(cin, growth, 3, padding=1, bias=False))

    def forward(self, x):
        return torch.cat([x, self.body(x)], dim=1)


def dense_block(cin: int, growth: int, n_layers: int) -> nn.Sequential:
    return nn.Sequential(*[DenseLayer(cin + i * growth, growth) for i in range(n_layers)])


def transition(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU(), nn.Conv2d(cin, cout, 1, bias=False), nn.AvgPool2d(2))


class TinyDenseNet(nn.Module):
    def __init__(self, num_classes: int = 2, in_channels: int = 3, growth: int = 8, block_layers=(2, 2)):
        super().__init__()
        width = 2 * growth
        layers = [nn.Conv2d(in_channels, width, 7, stride=2, padding=3, bias=False), nn.MaxPool2d(3, 2, 1)]
        for i, n in enumerate(block_layers):
            layers.append(dense_block(width, growth, n))
            width += n * growth
            if i < len(block_layers) - 1:
                layers.append(transition(width, width // 2))
                width //= 2
        self.features = nn.Sequential(*layers, nn.BatchNorm2d(width), nn.ReLU())
        self.classifier = nn.Linear(width, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).mean(dim=(2, 3)))
