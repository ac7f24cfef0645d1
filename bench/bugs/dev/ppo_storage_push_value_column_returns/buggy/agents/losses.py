import torch
import torch.nn.functional as F


def value_loss(values: torch.Tensor, batch) -> torch.Tensor:
    return F.mse_loss(values, batch.returns)


def policy_loss(new_log_probs, batch, clip=0.2):
    ratio = torch.exp(new_log_probs - batch.old_log_probs)
    clipped = torch.clamp(ratio, 1 - clip, 1 + clip)
    return -torch.min(ratio * batch.advantages, clipped * batch.advantages).mean()
