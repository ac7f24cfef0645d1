import torch


def normalized_adjacency(adj: torch.Tensor) -> torch.Tensor:
    adj = adj + torch.eye(adj.size(0))
    deg = adj.sum(dim=1)
    d_inv_sqrt = deg.pow(-0.5)
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


def propagate(x: torch.Tensor, support: torch.Tensor) -> torch.Tensor:
    """Diffuse features over the sensor graph: x is (batch, channels, nodes, time)."""
    return torch.einsum("bcnt,nm->bcmt", x, support)
