import numpy as np
import torch


def load_synthetic_citations(n_nodes: int = 60, n_classes: int = 3, seed: int = 0):
    """Papers with a few bibliometric columns, citing mostly inside their own field."""
    rng = np.random.default_rng(seed)
    field = rng.integers(0, n_classes, size=n_nodes)
    columns = {
        "year": rng.integers(2000, 2024, size=n_nodes).astype(np.float32),
        "n_authors": rng.integers(1, 12, size=n_nodes).astype(np.float32),
        "n_refs": rng.integers(5, 80, size=n_nodes).astype(np.float32),
    }
    topic = np.eye(n_classes, dtype=np.float32)[field] + 0.3 * rng.normal(size=(n_nodes, n_classes)).astype(np.float32)
    feats = np.concatenate([np.stack(list(columns.values()), axis=1), topic], axis=1)
    feats = (feats - feats.mean(0)) / (feats.std(0) + 1e-6)

    edges = []
    for i in range(n_nodes):
        same = np.flatnonzero(field == field[i])
        for j in rng.choice(same, size=3):
            if i != j:
                edges.append((i, j))
    return feats.astype(np.float32), np.array(edges).T, field


def normalized_adjacency(edges: np.ndarray, n_nodes: int) -> torch.Tensor:
    a = np.zeros((n_nodes, n_nodes), dtype=np.float32)
    a[edges[0], edges[1]] = 1.0
    a = np.maximum(a, a.T) + np.eye(n_nodes, dtype=np.float32)
    d_inv_sqrt = 1.0 / np.sqrt(a.sum(1))
    return torch.from_numpy(d_inv_sqrt[:, None] * a * d_inv_sqrt[None, :])
