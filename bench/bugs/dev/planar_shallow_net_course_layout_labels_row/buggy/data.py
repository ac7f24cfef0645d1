import numpy as np


def load_planar_dataset(m: int = 400, seed: int = 1):
    """The 'flower' data set of the course notebooks, in the course's layout: one example per column,
    X of shape (n_x, m) and labels Y of shape (1, m)."""
    rng = np.random.default_rng(seed)
    n = m // 2
    X = np.zeros((m, 2), dtype=np.float32)
    Y = np.zeros((m, 1), dtype=np.float32)
    for j in range(2):
        ix = range(n * j, n * (j + 1))
        t = np.linspace(j * 3.12, (j + 1) * 3.12, n) + rng.standard_normal(n) * 0.2
        r = 4 * np.sin(4 * t) + rng.standard_normal(n) * 0.2
        X[ix] = np.c_[r * np.sin(t), r * np.cos(t)]
        Y[ix] = j
    return X.T, Y.T
