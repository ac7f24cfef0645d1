import torch
import torch.nn as nn


class ResampleLoss(nn.Module):
    """Binary cross-entropy for long-tailed multi-label data: class re-weighting plus a negative-tolerant focal term."""

    def __init__(self, class_freq, gamma=2.0, neg_scale=2.0, eps=1e-6):
        super().__init__()
        freq = torch.as_tensor(class_freq, dtype=torch.float)
        self.register_buffer("class_weight", (freq.sum() / freq) / (freq.sum() / freq).mean())
        self.gamma = gamma
        self.neg_scale = neg_scale
        self.eps = eps

    def forward(self, cls_score, label):
        pred = cls_score.sigmoid()
        pred.clamp_(min=self.eps, max=1 - self.eps)
        pt = torch.where(label > 0, pred, 1 - pred)
        focal = (1 - pt).pow(self.gamma)
        bce = -(label * pred.log() + self.neg_scale * (1 - label) * (1 - pred).log())
        return (self.class_weight * focal * bce).mean()
