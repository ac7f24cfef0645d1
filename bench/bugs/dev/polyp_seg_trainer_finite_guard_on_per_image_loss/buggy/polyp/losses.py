import torch.nn.functional as F


def masked_bce(logits, mask, valid):
    """BCE over the valid (non-border) pixels of each image: one value per image, so hard images can be
    re-weighted or logged by the caller."""
    bce = F.binary_cross_entropy_with_logits(logits, mask, reduction="none")
    return (bce * valid).sum(dim=(1, 2, 3)) / valid.sum(dim=(1, 2, 3)).clamp(min=1.0)


def dice_score(logits, mask, eps=1e-6):
    pred = (logits.sigmoid() > 0.5).float()
    inter = (pred * mask).sum()
    return (2 * inter + eps) / (pred.sum() + mask.sum() + eps)
