import torch
import torch.nn as nn


class GINLayer(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.BatchNorm1d(dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, h: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        src, dst = edge_index
        agg = torch.zeros_like(h).index_add_(0, dst, h[src])
        return torch.relu(self.mlp((1 + self.eps) * h + agg))


def sum_readout(h: torch.Tensor, batch: torch.Tensor, num_graphs: int) -> torch.Tensor:
    """Sum node states per graph."""
    out = h.new_zeros(num_graphs, h.size(1))
    return out.scatter_add_(0, batch, h)
