import torch.nn as nn
import torch.nn.functional as F


class Stage(nn.Sequential):
    def __init__(self, c_in, c_out, stride):
        super().__init__(
            nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False),
            nn.GroupNorm(4, c_out),
            nn.SiLU(),
        )


class TinyResNet(nn.Module):
    widths = (16, 24, 32, 48)

    def __init__(self):
        super().__init__()
        w = self.widths
        self.stem = nn.Sequential(Stage(3, w[0], 2), Stage(w[0], w[0], 2))          # stride 4
        self.stages = nn.ModuleList([Stage(w[i], w[i + 1], 2) for i in range(3)])  # strides 8, 16, 32

    def forward(self, x):
        feats = [self.stem(x)]
        for stage in self.stages:
            feats.append(stage(feats[-1]))
        return feats


class SemanticFPN(nn.Module):
    def __init__(self, num_classes, fpn_dim=32):
        super().__init__()
        self.backbone = TinyResNet()
        self.lateral_convs = nn.ModuleList(nn.Conv2d(c, fpn_dim, 1) for c in TinyResNet.widths)
        self.fpn_convs = nn.ModuleList(nn.Conv2d(fpn_dim, fpn_dim, 3, padding=1) for _ in TinyResNet.widths)
        self.classifier = nn.Conv2d(fpn_dim, num_classes, 1)

    def forward(self, images):
        feats = self.backbone(images)
        laterals = [conv(f) for conv, f in zip(self.lateral_convs, feats)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] = laterals[i - 1] + F.interpolate(laterals[i], scale_factor=2, mode="nearest")
        p2 = self.fpn_convs[0](laterals[0])
        return F.interpolate(self.classifier(p2), scale_factor=4, mode="bilinear", align_corners=False)
