import torch
import torch.nn as nn


class GraphConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.self_loop = nn.Linear(dim, dim)
        self.neigh = nn.Linear(dim, dim, bias=False)

    def forward(self, h, adj):
        deg = adj.sum(-1, keepdim=True).clamp_min(1.0)
        return torch.relu(self.self_loop(h) + self.neigh(adj @ h) / deg)


class PropertyRegressor(nn.Module):
    """Message passing over dense adjacency, mean readout over real atoms, one scalar per molecule."""

    def __init__(self, atom_features, hidden, layers):
        super().__init__()
        self.embed = nn.Linear(atom_features, hidden)
        self.convs = nn.ModuleList([GraphConv(hidden) for _ in range(layers)])
        self.readout = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, atoms, adj, mask):
        h = self.embed(atoms)
        for conv in self.convs:
            h = conv(h, adj)
        pooled = (h * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return self.readout(pooled).squeeze(-1)
