import torch.nn.functional as F


def recam_ce_loss(cam_logits, labels, margin_weight):
    """Cross entropy of the class-specific feature logits, one value per positive (image, class) pair."""
    return F.cross_entropy(cam_logits, labels) * margin_weight


def multilabel_loss(logits, label_vec):
    return F.multilabel_soft_margin_loss(logits, label_vec)
