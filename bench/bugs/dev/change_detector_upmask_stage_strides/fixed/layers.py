import torch
from torch import nn


class ConvStage(nn.Module):
    def __init__(self, c_in: int, c_out: int, stride: int) -> None:
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1), nn.BatchNorm2d(c_out), nn.PReLU()
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


class MixingBlock(nn.Module):
    def __init__(self, ch_in: int, ch_out: int) -> None:
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(2 * ch_in, ch_out, 3, padding=1, groups=ch_out), nn.PReLU())

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return self.conv(torch.cat([x, y], dim=1))


class UpMask(nn.Module):
    def __init__(self, up_sampling: int, nin: int, nout: int) -> None:
        super().__init__()
        self.upsample = nn.Upsample(scale_factor=up_sampling, mode="bilinear", align_corners=True)
        self.convolution = nn.Sequential(nn.Conv2d(nin, nout, 3, padding=1), nn.PReLU())

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        x = self.upsample(x)
        x = self.convolution(x)
        return x * y
