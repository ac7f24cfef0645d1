import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, num_classes, backbone="resnet"):
        super().__init__()
        low_level_inplanes = {"resnet": 256, "xception": 128, "mobilenet": 24}[backbone]
        self.conv1 = nn.Conv2d(low_level_inplanes, 48, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(48)
        self.last_conv = nn.Sequential(
            nn.Conv2d(64 + 48, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
            nn.Conv2d(64, num_classes, 1),
        )

    def forward(self, x, low_level_feat):
        low_level_feat = F.relu(self.bn1(self.conv1(low_level_feat)))
        x = F.interpolate(x, size=low_level_feat.shape[2:], mode="bilinear", align_corners=True)
        return self.last_conv(torch.cat((x, low_level_feat), dim=1))


def build_decoder(num_classes, backbone="resnet"):
    return Decoder(num_classes, backbone)
