import torch
import torch.nn.functional as F


def weighted_quality_loss(logits: torch.Tensor, success: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """Per-grasp loss: failed grasps near the object count more (weights from the simulator)."""
    per_grasp = F.binary_cross_entropy_with_logits(logits, success, reduction="none")
    return per_grasp * weights
