import torch
import torch.nn as nn
import torch.nn.functional as F


class FPN(nn.Module):
    """Feature pyramid neck: 1x1 lateral convs, top-down nearest upsampling, 3x3 output convs."""

    def __init__(self, in_channels=(16, 32, 64), out_channels=24, num_outs=3):
        super().__init__()
        self.lateral_convs = nn.ModuleList(nn.Conv2d(c, out_channels, 1) for c in in_channels)
        self.fpn_convs = nn.ModuleList(nn.Conv2d(out_channels, out_channels, 3, padding=1) for _ in in_channels)
        self.num_outs = num_outs

    def forward(self, inputs):
        laterals = [lateral_conv(inputs[i]) for i, lateral_conv in enumerate(self.lateral_convs)]
        used_backbone_levels = len(laterals)
        for i in range(used_backbone_levels - 1, 0, -1):
            prev_shape = laterals[i - 1].shape[2:]
            laterals[i - 1] += F.interpolate(laterals[i], size=prev_shape, mode="nearest")
        return tuple(self.fpn_convs[i](laterals[i]) for i in range(used_backbone_levels))


class TinyBackbone(nn.Module):
    def __init__(self, widths=(16, 32, 64)):
        super().__init__()
        chans = (3,) + tuple(widths)
        self.stages = nn.ModuleList(
            nn.Sequential(nn.Conv2d(chans[i], chans[i + 1], 3, stride=2, padding=1), nn.BatchNorm2d(chans[i + 1]), nn.ReLU())
            for i in range(len(widths))
        )

    def forward(self, x):
        outs = []
        for stage in self.stages:
            x = stage(x)
            outs.append(x)
        return outs


class DenseHead(nn.Module):
    def __init__(self, channels=24, num_classes=3):
        super().__init__()
        self.cls = nn.Conv2d(channels, num_classes, 3, padding=1)

    def forward(self, feats):
        return [self.cls(f) for f in feats]


def train(steps=2):
    backbone, neck, head = TinyBackbone(), FPN(), DenseHead()
    params = [*backbone.parameters(), *neck.parameters(), *head.parameters()]
    optimizer = torch.optim.SGD(params, lr=0.01, momentum=0.9)
    for step in range(steps):
        images = torch.rand(2, 3, 64, 64)
        cls_scores = head(neck(backbone(images)))
        targets = [torch.randint(0, 3, s.shape[:1] + s.shape[2:]) for s in cls_scores]
        loss = sum(F.cross_entropy(s, t) for s, t in zip(cls_scores, targets))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    train()
