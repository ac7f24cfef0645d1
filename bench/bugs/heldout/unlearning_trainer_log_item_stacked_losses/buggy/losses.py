import torch
import torch.nn.functional as F


def remember_loss(logits, labels):
    return F.cross_entropy(logits.flatten(0, 1), labels.flatten())


def uniform_loss(logits):
    log_probs = F.log_softmax(logits, dim=-1)
    uniform = torch.full_like(log_probs, 1.0 / logits.size(-1))
    return F.kl_div(log_probs, uniform, reduction="batchmean")


def combined_loss(retain_logits, retain_labels, forget_logits, weights=(1.0, 1.0)):
    parts = torch.stack([remember_loss(retain_logits, retain_labels), uniform_loss(forget_logits)])
    return parts * torch.tensor(weights)
