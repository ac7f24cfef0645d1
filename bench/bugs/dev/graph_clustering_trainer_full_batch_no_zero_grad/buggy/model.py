import torch
from torch import nn
from torch.nn import functional as F


class AttributeStructureEncoder(nn.Module):
    """Two MLP encoders, one over the smoothed attributes and one over the adjacency rows."""

    def __init__(self, n_input, n_nodes, dims=(64, 32)):
        super().__init__()
        self.attr_encoder = nn.Sequential(nn.Linear(n_input, dims[0]), nn.PReLU(), nn.Linear(dims[0], dims[1]))
        self.struct_encoder = nn.Sequential(nn.Linear(n_nodes, dims[0]), nn.PReLU(), nn.Linear(dims[0], dims[1]))

    def forward(self, x, adj):
        z_attr = F.normalize(self.attr_encoder(x), dim=1, p=2)
        z_struct = F.normalize(self.struct_encoder(adj), dim=1, p=2)
        return z_attr, z_struct
