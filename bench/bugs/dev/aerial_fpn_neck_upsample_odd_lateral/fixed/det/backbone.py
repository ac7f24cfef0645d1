import torch.nn as nn


def conv_bn_relu(c_in, c_out, stride):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class TinyBackbone(nn.Module):
    """Four stages at strides 4, 8, 16 and 32."""

    out_channels = (16, 32, 64, 128)

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(conv_bn_relu(3, 16, 2), conv_bn_relu(16, 16, 2))
        self.stage2 = conv_bn_relu(16, 32, 2)
        self.stage3 = conv_bn_relu(32, 64, 2)
        self.stage4 = conv_bn_relu(64, 128, 2)

    def forward(self, x):
        c1 = self.stem(x)
        c2 = self.stage2(c1)
        c3 = self.stage3(c2)
        c4 = self.stage4(c3)
        return [c1, c2, c3, c4]
