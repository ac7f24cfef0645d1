from typing import List

import torch


def discounted_returns(rewards: List[float], dones: List[bool], bootstrap: float, gamma: float) -> torch.Tensor:
    """n-step returns computed backwards through the rollout, reset at episode ends."""
    out = []
    running = bootstrap
    for r, d in zip(reversed(rewards), reversed(dones)):
        running = r + gamma * running * (0.0 if d else 1.0)
        out.append(running)
    out.reverse()
    return torch.tensor(out, dtype=torch.float32)


def explained_variance(pred: torch.Tensor, target: torch.Tensor) -> float:
    var = target.var()
    return float("nan") if var == 0 else float(1 - (target - pred).var() / var)
