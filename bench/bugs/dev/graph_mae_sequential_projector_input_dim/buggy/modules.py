import torch
import torch.nn as nn


class MLPProjector(nn.Sequential):
    """Linear -> norm -> act -> Linear, written as a Sequential so checkpoints keep flat keys."""

    def __init__(self, in_dim: int, hidden_dim: int, out_dim: int, act: type[nn.Module] = nn.PReLU) -> None:
        super().__init__(
            nn.Linear(in_dim, hidden_dim),
            nn.LayerNorm(hidden_dim),
            act(),
            nn.Linear(hidden_dim, out_dim),
        )


class DenseGCNLayer(nn.Module):
    def __init__(self, in_dim: int, out_dim: int) -> None:
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
        return torch.relu(adj @ self.lin(x))
