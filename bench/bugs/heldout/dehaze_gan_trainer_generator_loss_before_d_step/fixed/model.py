import torch
import torch.nn as nn


class PyramidGenerator(nn.Module):
    def __init__(self, ch: int = 16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, ch, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(ch, 3, 3, padding=1),
        )

    def forward(self, hazy: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.body(hazy) + hazy)


class PatchDiscriminator(nn.Module):
    def __init__(self, ch: int = 16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, ch, 4, stride=2, padding=1),
            nn.LeakyReLU(0.2),
            nn.Conv2d(ch, 2 * ch, 4, stride=2, padding=1),
            nn.LeakyReLU(0.2),
            nn.Conv2d(2 * ch, 1, 3, padding=1),
        )

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        return self.net(img)
