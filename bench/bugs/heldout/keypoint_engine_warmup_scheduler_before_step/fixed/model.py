import torch.nn as nn


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class SimpleBaseline(nn.Module):
    """Downsample twice, upsample twice, predict one heatmap per keypoint."""

    def __init__(self, num_keypoints: int = 5, width: int = 16):
        super().__init__()
        self.backbone = nn.Sequential(conv_bn(3, width), conv_bn(width, 2 * width, 2), conv_bn(2 * width, 4 * width, 2))
        self.deconv = nn.Sequential(
            nn.ConvTranspose2d(4 * width, 2 * width, 4, 2, 1), nn.ReLU(inplace=True),
            nn.ConvTranspose2d(2 * width, width, 4, 2, 1), nn.ReLU(inplace=True),
        )
        self.final = nn.Conv2d(width, num_keypoints, 1)

    def forward(self, x):
        return self.final(self.deconv(self.backbone(x)))
