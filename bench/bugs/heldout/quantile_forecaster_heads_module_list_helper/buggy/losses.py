import torch


def pinball_loss(pred, target, quantiles):
    # pred: (B, H, Q), target: (B, H)
    q = torch.tensor(quantiles, dtype=pred.dtype)
    err = target.unsqueeze(-1) - pred
    return torch.maximum(q * err, (q - 1) * err).mean()
