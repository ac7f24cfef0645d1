import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
        nn.Conv2d(c_out, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class UpBlock(nn.Module):
    """Bilinear upsampling, then concatenation with the encoder's skip feature map."""

    def __init__(self, in_ch, skip_ch, out_ch):
        super().__init__()
        self.skip_ch = skip_ch
        self.conv = conv_block(in_ch + skip_ch, out_ch)

    def forward(self, x, skip):
        x = F.interpolate(x, size=skip.shape[-2:], mode="bilinear", align_corners=False)
        return self.conv(torch.cat([x, skip], dim=1))
