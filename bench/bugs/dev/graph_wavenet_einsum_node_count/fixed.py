import torch
import torch.nn as nn


class GraphPropagation(nn.Module):
    """Mixes node features along a fixed road-network adjacency: x[b, c, v, t] -> sum_w A[v, w] x[b, c, w, t]."""

    def __init__(self, adjacency, channels, depth=2, alpha=0.05):
        super().__init__()
        self.register_buffer("adj", adjacency / adjacency.sum(1, keepdim=True))
        self.depth, self.alpha = depth, alpha
        self.mlp = nn.Conv2d((depth + 1) * channels, channels, kernel_size=1)

    def forward(self, x):
        h, out = x, [x]
        for _ in range(self.depth):
            h = self.alpha * x + (1 - self.alpha) * torch.einsum("ncwl,vw->ncvl", h, self.adj)
            out.append(h)
        return self.mlp(torch.cat(out, dim=1))


def load_sensors(num_nodes=20, steps=12, batch=4):
    """Speeds from the loop detectors, offline ones filled with zeros."""
    readings = torch.randn(batch, 2, num_nodes, steps)
    adjacency = (torch.rand(num_nodes, num_nodes) > 0.8).float() + torch.eye(num_nodes)
    return readings, adjacency


readings, adjacency = load_sensors()
layer = GraphPropagation(adjacency, channels=2)
print(layer(readings).shape)
