import torch.nn.functional as F


def color_loss(pred, gt, mask):
    # rays outside the object mask do not count towards the photometric error
    err = F.l1_loss(pred * mask, gt * mask, reduction="none").sum(dim=-1)
    return err.sum() / (mask.sum() + 1e-5)


def eikonal_loss(grad):
    return ((grad.norm(dim=-1) - 1.0) ** 2).mean()
