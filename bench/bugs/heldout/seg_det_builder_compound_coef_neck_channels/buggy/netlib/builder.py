import torch.nn as nn

from .blocks import Backbone, SegHead

# widths of the three encoder stages, per compound coefficient
BACKBONE_WIDTHS = {0: (16, 24, 40), 1: (16, 24, 40), 2: (16, 24, 48), 3: (24, 32, 48)}
P3_CHANNELS = {0: 40, 1: 40, 2: 48, 3: 48}


class SegModel(nn.Module):
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone = backbone
        self.head = head

    def forward(self, images):
        return self.head(self.backbone(images))


def build_model(cfg):
    backbone = Backbone(BACKBONE_WIDTHS[cfg["backbone_coef"]])
    head = SegHead(P3_CHANNELS[cfg.get("compound_coef", 3)], cfg["num_classes"])
    return SegModel(backbone, head)
