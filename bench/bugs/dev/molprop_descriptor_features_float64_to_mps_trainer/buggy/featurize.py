"""Descriptor features for molecules (the RDKit 2D descriptors stand-in), scaled per column."""

import numpy as np


def smiles_corpus(n, seed):
    rng = np.random.default_rng(seed)
    atoms = np.array(list("CCCCNOSF"))
    return ["".join(rng.choice(atoms, size=rng.integers(4, 12))) for _ in range(n)]


def descriptors(smiles, n_descriptors):
    feats = np.zeros((len(smiles), n_descriptors))
    for i, s in enumerate(smiles):
        counts = [s.count(a) for a in "CNOSF"]
        rng = np.random.default_rng(sum(ord(ch) * (k + 1) for k, ch in enumerate(s)))
        feats[i, :5] = counts
        feats[i, 5] = len(s)
        feats[i, 6:] = rng.normal(size=n_descriptors - 6)
    return feats


class StandardScaler:
    def fit(self, x):
        self.means = np.nanmean(x, axis=0)
        self.stds = np.nanstd(x, axis=0)
        self.stds[self.stds == 0] = 1.0
        return self

    def transform(self, x):
        return np.nan_to_num((x - self.means) / self.stds)
