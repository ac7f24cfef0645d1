import torch.nn as nn

from layers import Conv4d


class LightFieldDenoiser(nn.Module):
    """Residual denoiser for 4-D light fields (angular u, v and spatial h, w), one colour channel."""

    def __init__(self, width=4):
        super().__init__()
        self.conv1 = Conv4d(1, width, 3, padding=1)
        self.act = nn.LeakyReLU(0.1)
        self.conv2 = Conv4d(width, 1, 3, padding=1)

    def forward(self, lf):
        return lf - self.conv2(self.act(self.conv1(lf)))
