import torch.nn as nn
import torch.nn.functional as F


class TinyDetector(nn.Module):
    """Per-cell objectness and class logits over a feature grid; returns its loss dict in training."""

    def __init__(self, num_classes=3, width=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, width, 3, 2, 1), nn.BatchNorm2d(width), nn.ReLU(),
                                      nn.Conv2d(width, width, 3, 2, 1), nn.BatchNorm2d(width), nn.ReLU())
        self.objectness = nn.Conv2d(width, 1, 1)
        self.cls = nn.Conv2d(width, num_classes, 1)

    def forward(self, images, targets):
        feat = self.backbone(images)
        obj = self.objectness(feat).squeeze(1)
        cls = self.cls(feat)
        loss_obj = F.binary_cross_entropy_with_logits(obj, targets["objectness"])
        mask = targets["objectness"] > 0
        loss_cls = F.cross_entropy(cls.permute(0, 2, 3, 1)[mask], targets["labels"][mask])
        return {"loss_objectness": loss_obj, "loss_cls": loss_cls}
