import torch
import torch.nn as nn


class SharedMLP(nn.Sequential):
    def __init__(self, channels, bn=True):
        layers = []
        for c_in, c_out in zip(channels[:-1], channels[1:]):
            layers.append(nn.Conv1d(c_in, c_out, 1, bias=not bn))
            if bn:
                layers.append(nn.BatchNorm1d(c_out))
            layers.append(nn.ReLU(inplace=True))
        super().__init__(*layers)


class PointNetSeg(nn.Module):
    """Per-point segmentation: local features, a global max-pooled feature, and a point-wise head."""

    def __init__(self, num_classes=2, input_channels=3, dropout=0.5):
        super().__init__()
        self.local = SharedMLP([input_channels, 32, 64])
        self.global_feat = SharedMLP([64, 128, 256])
        self.head = nn.Sequential(
            SharedMLP([64 + 256, 128, 64]),
            nn.Dropout(dropout),
            nn.Conv1d(64, num_classes, 1),
        )

    def forward(self, pts):
        x = pts.transpose(1, 2)
        local = self.local(x)
        glob = self.global_feat(local).max(dim=2, keepdim=True)[0]
        feat = torch.cat([local, glob.expand(-1, -1, local.size(2))], dim=1)
        return self.head(feat).transpose(1, 2).contiguous()
