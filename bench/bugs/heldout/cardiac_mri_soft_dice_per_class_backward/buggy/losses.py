import torch
import torch.nn as nn
import torch.nn.functional as F


class SoftDiceLoss(nn.Module):
    """1 - Dice per structure (LV, RV, myocardium), background excluded; the per-class values are logged too."""

    def __init__(self, n_classes: int, smooth: float = 1e-5, include_background: bool = False):
        super().__init__()
        self.n_classes, self.smooth, self.include_background = n_classes, smooth, include_background

    def forward(self, logits, target):
        probs = logits.softmax(dim=1)
        onehot = F.one_hot(target, self.n_classes).permute(0, 3, 1, 2).float()
        if not self.include_background:
            probs, onehot = probs[:, 1:], onehot[:, 1:]
        dims = (0, 2, 3)
        inter = (probs * onehot).sum(dims)
        denom = probs.sum(dims) + onehot.sum(dims)
        return 1 - (2 * inter + self.smooth) / (denom + self.smooth)
