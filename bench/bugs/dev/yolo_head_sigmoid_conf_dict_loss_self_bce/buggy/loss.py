import torch
from torch import nn


class YoloLoss(nn.Module):
    def __init__(self, num_classes, box_weight=5.0, noobj_weight=0.5):
        super().__init__()
        self.num_classes = num_classes
        self.box_weight = box_weight
        self.noobj_weight = noobj_weight
        self.bce = nn.BCEWithLogitsLoss(reduction="none")
        self.mse = nn.MSELoss(reduction="none")

    def forward(self, preds, targets):
        obj_mask = targets["obj"]
        n_obj = obj_mask.sum().clamp(min=1.0)

        conf_loss = self.bce(preds["conf"], obj_mask)
        conf_loss = (obj_mask * conf_loss + self.noobj_weight * (1 - obj_mask) * conf_loss).sum() / n_obj

        box_loss = (self.mse(preds["xywh"], targets["xywh"]).sum(-1) * obj_mask).sum() / n_obj

        cls_loss = self.bce(preds["cls"], targets["cls"]).sum(-1)
        cls_loss = (cls_loss * obj_mask).sum() / n_obj

        total = self.box_weight * box_loss + conf_loss + cls_loss
        return total, {"box": box_loss.item(), "conf": conf_loss.item(), "cls": cls_loss.item()}
