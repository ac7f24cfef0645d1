import numpy as np


def make_ordinal_regression(n_samples=200, n_features=12, num_classes=5, seed=0):
    """A latent score cut into ordered grades, as in the ordinal benchmarks."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, n_features)).astype(np.float32)
    w = rng.normal(size=n_features)
    score = X @ w + 0.3 * rng.normal(size=n_samples)
    cuts = np.quantile(score, np.linspace(0, 1, num_classes + 1)[1:-1])
    y = np.digitize(score, cuts)
    return X, y


def train_test_split(X, y, test_size=0.25, seed=0):
    idx = np.random.default_rng(seed).permutation(len(X))
    n_test = int(len(X) * test_size)
    return X[idx[n_test:]], X[idx[:n_test]], y[idx[n_test:]], y[idx[:n_test]]
