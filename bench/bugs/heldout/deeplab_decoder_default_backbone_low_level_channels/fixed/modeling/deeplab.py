import torch.nn as nn
import torch.nn.functional as F

from modeling.backbone import build_backbone
from modeling.decoder import build_decoder


class DeepLab(nn.Module):
    def __init__(self, backbone="resnet", num_classes=21, freeze_bn=False):
        super().__init__()
        self.backbone = build_backbone(backbone)
        self.decoder = build_decoder(num_classes, backbone)
        self.freeze_bn = freeze_bn

    def forward(self, image):
        x, low_level_feat = self.backbone(image)
        x = self.decoder(x, low_level_feat)
        return F.interpolate(x, size=image.shape[2:], mode="bilinear", align_corners=True)
