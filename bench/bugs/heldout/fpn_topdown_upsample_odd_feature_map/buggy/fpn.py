import torch.nn as nn
import torch.nn.functional as F


def down(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride=2, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class TinyFPN(nn.Module):
    def __init__(self, widths=(16, 32, 64), out_ch=32, n_classes=2):
        super().__init__()
        self.stem = down(3, widths[0])
        self.stages = nn.ModuleList(down(a, b) for a, b in zip(widths[:-1], widths[1:]))
        self.lateral = nn.ModuleList(nn.Conv2d(w, out_ch, 1) for w in widths)
        self.smooth = nn.Conv2d(out_ch, out_ch, 3, padding=1)
        self.classifier = nn.Conv2d(out_ch, n_classes, 1)

    def forward(self, x):
        size = x.shape[-2:]
        feats = [self.stem(x)]
        for stage in self.stages:
            feats.append(stage(feats[-1]))
        top = self.lateral[-1](feats[-1])
        for lat, feat in zip(reversed(self.lateral[:-1]), reversed(feats[:-1])):
            top = F.interpolate(top, scale_factor=2, mode="nearest") + lat(feat)
        logits = self.classifier(self.smooth(top))
        return F.interpolate(logits, size=size, mode="bilinear", align_corners=False)
