import torch
import torch.nn as nn
import torch.nn.functional as F


def double_conv(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.ReLU(inplace=True),
                         nn.Conv2d(c_out, c_out, 3, padding=1), nn.ReLU(inplace=True))


class DecoderBlock(nn.Module):
    def __init__(self, c_in, c_skip, c_out):
        super().__init__()
        self.conv = double_conv(c_in + c_skip, c_out)

    def forward(self, x, skip):
        x = F.interpolate(x, scale_factor=2, mode="nearest")
        x = torch.cat([x, skip], dim=1)
        return self.conv(x)


class MiniUNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.enc1, self.enc2, self.enc3 = double_conv(1, 16), double_conv(16, 32), double_conv(32, 64)
        self.dec2, self.dec1 = DecoderBlock(64, 32, 32), DecoderBlock(32, 16, 16)
        self.head = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        e3 = self.enc3(F.max_pool2d(e2, 2))
        return self.head(self.dec1(self.dec2(e3, e2), e1))


model = MiniUNet()
slices = torch.randn(2, 1, 50, 50)
print(model(slices).shape)
