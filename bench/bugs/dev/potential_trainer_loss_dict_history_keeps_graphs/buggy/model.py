import torch
import torch.nn as nn


class AtomwiseNet(nn.Module):
    """Per-atom energies summed to a total energy, and partial charges contracted with positions to a dipole."""

    def __init__(self, n_species, embed_dim=16, hidden=32):
        super().__init__()
        self.embedding = nn.Embedding(n_species, embed_dim)
        self.pos_proj = nn.Linear(3, embed_dim)
        self.mlp = nn.Sequential(nn.Linear(embed_dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.energy_head = nn.Linear(hidden, 1)
        self.charge_head = nn.Linear(hidden, 1)

    def forward(self, species, pos):
        h = self.embedding(species) + self.pos_proj(pos)
        h = self.mlp(h)
        atomic_energy = self.energy_head(h).squeeze(-1)
        charges = self.charge_head(h)
        charges = charges - charges.mean(dim=1, keepdim=True)
        return {
            "total_energy": atomic_energy.sum(dim=1),
            "dipole": (charges * pos).sum(dim=1),
        }
