import torch
from torch.utils.data import DataLoader, TensorDataset


def random_molecules(cfg, generator):
    n, m = cfg.num_graphs, cfg.max_atoms
    sizes = torch.randint(4, m + 1, (n,), generator=generator)
    mask = (torch.arange(m)[None] < sizes[:, None]).float()
    atoms = torch.rand(n, m, cfg.atom_features, generator=generator) * mask[..., None]
    bonds = (torch.rand(n, m, m, generator=generator) > 0.7).float()
    adj = ((bonds + bonds.transpose(1, 2)) > 0).float() * mask[:, :, None] * mask[:, None, :]
    target = atoms.sum(dim=(1, 2)) / sizes + 0.1 * adj.sum(dim=(1, 2)) / sizes
    return TensorDataset(atoms, adj, mask, target)


def make_loader(cfg, generator, shuffle=True):
    return DataLoader(random_molecules(cfg, generator), batch_size=cfg.batch_size, shuffle=shuffle,
                      generator=generator)
