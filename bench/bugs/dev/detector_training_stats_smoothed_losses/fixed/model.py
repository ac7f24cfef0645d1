import torch.nn as nn
import torch.nn.functional as F


class TinyRPNHead(nn.Module):
    """Objectness and box-delta head over a small conv trunk."""

    def __init__(self, channels=16, anchors=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Conv2d(3, channels, 3, padding=1), nn.ReLU(),
                                   nn.Conv2d(channels, channels, 3, stride=2, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(channels, anchors, 1)
        self.bbox = nn.Conv2d(channels, anchors * 4, 1)

    def forward(self, images, obj_targets, box_targets):
        feat = self.trunk(images)
        cls_logits, deltas = self.cls(feat), self.bbox(feat)
        return {
            "loss_rpn_cls": F.binary_cross_entropy_with_logits(cls_logits, obj_targets),
            "loss_rpn_bbox": F.smooth_l1_loss(deltas, box_targets, beta=1 / 9),
        }
