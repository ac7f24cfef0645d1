import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDETR(nn.Module):
    """A toy set predictor: image features to a fixed set of (class, box) queries."""

    def __init__(self, num_classes=4, num_queries=5, hidden=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, hidden, 4, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.query_embed = nn.Embedding(num_queries, hidden)
        self.class_embed = nn.Linear(hidden, num_classes + 1)
        self.bbox_embed = nn.Linear(hidden, 4)

    def forward(self, samples):
        feats = self.backbone(samples)
        hs = feats[:, None, :] + self.query_embed.weight[None]
        return {"pred_logits": self.class_embed(hs), "pred_boxes": self.bbox_embed(hs).sigmoid()}


class SetCriterion(nn.Module):
    def __init__(self, num_classes, weight_dict):
        super().__init__()
        self.num_classes = num_classes
        self.weight_dict = weight_dict

    def forward(self, outputs, targets):
        # identity matching keeps the toy simple: query i predicts target i
        logits, boxes = outputs["pred_logits"], outputs["pred_boxes"]
        loss_ce = F.cross_entropy(logits.flatten(0, 1), targets["labels"].flatten())
        loss_bbox = F.l1_loss(boxes, targets["boxes"])
        return {"loss_ce": loss_ce, "loss_bbox": loss_bbox}


def build(args):
    weight_dict = {"loss_ce": 1.0, "loss_bbox": args.bbox_loss_coef}
    return TinyDETR(args.num_classes), SetCriterion(args.num_classes, weight_dict)
