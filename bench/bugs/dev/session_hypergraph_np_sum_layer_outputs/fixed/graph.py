import numpy as np
import torch


def session_hypergraph(sessions, n_items):
    """Row-normalised item-item adjacency through the session hyperedges, as a sparse tensor."""
    H = np.zeros((n_items, len(sessions)), dtype=np.float32)
    for j, sess in enumerate(sessions):
        for item in sess:
            H[item, j] = 1.0
    deg_v = H.sum(1, keepdims=True) + 1e-8
    deg_e = H.sum(0, keepdims=True) + 1e-8
    adj = (H / deg_v) @ (H / deg_e).T
    idx = np.nonzero(adj)
    return torch.sparse_coo_tensor(np.vstack(idx), adj[idx], adj.shape).coalesce()
