import torch.nn as nn
import torch.nn.functional as F


class DiceBCELoss(nn.Module):
    def __init__(self, smooth=1.0, bce_weight=0.5):
        super().__init__()
        self.smooth = smooth
        self.bce_weight = bce_weight

    def forward(self, probs, target):
        flat_p, flat_t = probs.view(-1), target.view(-1)
        inter = (flat_p * flat_t).sum()
        dice = 1 - (2.0 * inter + self.smooth) / (flat_p.sum() + flat_t.sum() + self.smooth)
        return dice + self.bce_weight * F.binary_cross_entropy(probs, target)
