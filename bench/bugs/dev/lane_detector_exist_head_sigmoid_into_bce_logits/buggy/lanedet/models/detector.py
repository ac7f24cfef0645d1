import torch
import torch.nn as nn

from lanedet.models.backbone import TinyBackbone
from lanedet.models.heads import ExistHead, SegHead


class LaneSegDetector(nn.Module):
    def __init__(self, num_lanes=4, width=16, seg_weight=1.0, exist_weight=0.1, bg_weight=0.4):
        super().__init__()
        self.backbone = TinyBackbone(width)
        self.seg_head = SegHead(self.backbone.out_channels, num_lanes)
        self.exist_head = ExistHead(self.backbone.out_channels, num_lanes)
        class_weights = torch.ones(num_lanes + 1)
        class_weights[0] = bg_weight
        self.seg_criterion = nn.CrossEntropyLoss(weight=class_weights)
        self.exist_criterion = nn.BCEWithLogitsLoss()
        self.seg_weight, self.exist_weight = seg_weight, exist_weight

    def forward(self, img):
        feat = self.backbone(img)
        return {"seg": self.seg_head(feat, img.shape[-2:]), "exist": self.exist_head(feat)}

    def loss(self, output, batch):
        seg_loss = self.seg_criterion(output["seg"], batch["label"])
        exist_loss = self.exist_criterion(output["exist"], batch["exist"])
        total = self.seg_weight * seg_loss + self.exist_weight * exist_loss
        return total, {"seg_loss": seg_loss.item(), "exist_loss": exist_loss.item()}
