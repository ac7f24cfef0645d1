import torch
import torch.nn as nn
import torch.nn.functional as F


class SegHead(nn.Module):
    def __init__(self, in_ch: int, n_classes: int, class_weights=None):
        super().__init__()
        self.n_classes = n_classes
        self.classifier = nn.Sequential(nn.Conv2d(in_ch, in_ch, 3, padding=1), nn.ReLU(), nn.Conv2d(in_ch, n_classes, 1))
        self.register_buffer("class_weights", class_weights if class_weights is not None else torch.ones(n_classes))

    def forward(self, feats, out_size):
        return F.interpolate(self.classifier(feats), size=out_size, mode="bilinear", align_corners=False)

    def loss(self, logits, target, ignore_index: int = 255):
        pixels = logits.permute(0, 2, 3, 1).view(-1, self.n_classes)
        return F.cross_entropy(pixels, target.view(-1), weight=self.class_weights, ignore_index=ignore_index)
