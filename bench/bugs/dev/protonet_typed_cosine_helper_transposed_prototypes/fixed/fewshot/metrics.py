import torch
import torch.nn.functional as F
from jaxtyping import Float
from torch import Tensor


def cosine_logits(
    queries: Float[Tensor, "episodes n dim"],
    prototypes: Float[Tensor, "episodes way dim"],
    scale: float = 10.0,
) -> Float[Tensor, "episodes n way"]:
    q = F.normalize(queries, dim=-1)
    p = F.normalize(prototypes, dim=-1)
    return scale * torch.bmm(q, p.transpose(1, 2))


def episode_accuracy(logits: Float[Tensor, "episodes n way"], labels: Tensor) -> float:
    return (logits.argmax(-1) == labels).float().mean().item()
