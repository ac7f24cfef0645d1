import torch
import torch.nn as nn

from graphs import ATOM_TYPES
from layers import GINLayer, sum_readout


class PropertyGIN(nn.Module):
    def __init__(self, hidden: int = 64, layers: int = 3):
        super().__init__()
        self.embed = nn.Embedding(ATOM_TYPES, hidden)
        self.convs = nn.ModuleList(GINLayer(hidden) for _ in range(layers))
        self.head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, atoms, edge_index, batch, num_graphs: int):
        h = self.embed(atoms)
        for conv in self.convs:
            h = h + conv(h, edge_index)
        g = sum_readout(h, batch, num_graphs)
        return self.head(g).squeeze(-1)
