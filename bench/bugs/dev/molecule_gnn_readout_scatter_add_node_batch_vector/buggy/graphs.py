"""Random small 'molecules' and a collate that packs them into one disconnected graph."""
from dataclasses import dataclass
from typing import List

import numpy as np
import torch

ATOM_TYPES = 9


@dataclass
class Molecule:
    atoms: np.ndarray        # (n_atoms,) atom type ids
    bonds: np.ndarray        # (2, n_bonds) undirected, both directions listed
    target: float


def random_molecule(rng: np.random.Generator) -> Molecule:
    n = int(rng.integers(4, 12))
    atoms = rng.integers(0, ATOM_TYPES, size=n)
    src = np.arange(1, n)
    dst = np.array([rng.integers(0, i) for i in src])
    bonds = np.concatenate([np.stack([src, dst]), np.stack([dst, src])], axis=1)
    return Molecule(atoms, bonds, float(atoms.mean() / ATOM_TYPES + 0.1 * n))


def collate(mols: List[Molecule]):
    atom_ids, edges, batch, targets = [], [], [], []
    offset = 0
    for gi, m in enumerate(mols):
        atom_ids.append(m.atoms)
        edges.append(m.bonds + offset)
        batch.append(np.full(len(m.atoms), gi))
        targets.append(m.target)
        offset += len(m.atoms)
    return (
        torch.from_numpy(np.concatenate(atom_ids)).long(),
        torch.from_numpy(np.concatenate(edges, axis=1)).long(),
        torch.from_numpy(np.concatenate(batch)).long(),
        torch.tensor(targets, dtype=torch.float32),
    )
