import numpy as np


class NumpyDataset:
    """X: (n_samples, n_features); y and w: (n_samples, n_tasks), as the loaders write them."""

    def __init__(self, X, y, w=None, ids=None):
        self.X = np.asarray(X, dtype=np.float32)
        self.y = np.asarray(y)
        if self.y.ndim == 1:
            self.y = self.y[:, None]
        self.w = np.ones_like(self.y, dtype=np.float32) if w is None else np.asarray(w, dtype=np.float32)
        self.ids = np.arange(len(self.X)) if ids is None else np.asarray(ids)

    def __len__(self):
        return len(self.X)

    @property
    def n_tasks(self):
        return self.y.shape[1]

    def iterbatches(self, batch_size, shuffle=True, rng=None):
        order = (rng or np.random.default_rng(0)).permutation(len(self)) if shuffle else np.arange(len(self))
        for start in range(0, len(self), batch_size):
            idx = order[start:start + batch_size]
            yield self.X[idx], self.y[idx], self.w[idx], self.ids[idx]


def make_assay_dataset(n_samples=96, n_features=32, n_classes=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, n_features))
    proj = rng.normal(size=(n_features, n_classes))
    y = (X @ proj).argmax(axis=1).reshape(-1, 1)
    return NumpyDataset(X, y)
