import torch
from torch.utils.data import DataLoader, Dataset


class ToyMolecules(Dataset):
    def __init__(self, n, n_atoms, n_species, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.species = torch.randint(0, n_species, (n, n_atoms), generator=g)
        self.pos = torch.randn(n, n_atoms, 3, generator=g)
        eps = torch.linspace(-1.0, 1.0, n_species)
        self.energy = eps[self.species].sum(1) + 0.1 * self.pos.pow(2).sum((1, 2))
        q = eps[self.species] - eps[self.species].mean(1, keepdim=True)
        self.dipole = (q.unsqueeze(-1) * self.pos).sum(1)

    def __len__(self):
        return len(self.species)

    def __getitem__(self, i):
        return {"species": self.species[i], "pos": self.pos[i], "total_energy": self.energy[i], "dipole": self.dipole[i]}


def build_loader(cfg):
    ds = ToyMolecules(cfg["n_train"], cfg["n_atoms"], cfg["n_species"], seed=cfg["seed"])
    return DataLoader(ds, batch_size=cfg["batch_size"], shuffle=True)
