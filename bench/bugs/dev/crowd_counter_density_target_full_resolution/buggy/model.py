import torch
import torch.nn as nn


def vgg_block(cin: int, cout: int, convs: int, pool: bool) -> list[nn.Module]:
    layers: list[nn.Module] = []
    for i in range(convs):
        layers += [nn.Conv2d(cin if i == 0 else cout, cout, 3, padding=1), nn.ReLU(inplace=True)]
    if pool:
        layers.append(nn.MaxPool2d(2, 2))
    return layers


class DensityNet(nn.Module):
    """Front end of three pooled stages (stride 8), dilated back end, 1x1 density head."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        self.frontend = nn.Sequential(
            *vgg_block(3, width, 2, True),
            *vgg_block(width, 2 * width, 2, True),
            *vgg_block(2 * width, 4 * width, 2, True),
        )
        self.backend = nn.Sequential(
            nn.Conv2d(4 * width, 4 * width, 3, padding=2, dilation=2), nn.ReLU(inplace=True),
            nn.Conv2d(4 * width, 2 * width, 3, padding=2, dilation=2), nn.ReLU(inplace=True),
        )
        self.head = nn.Conv2d(2 * width, 1, 1)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.head(self.backend(self.frontend(images)))
