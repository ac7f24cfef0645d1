import numpy as np
import torch


def synthetic_graph(n_nodes=60, n_feats=20, n_clusters=3, p_in=0.3, p_out=0.02, seed=0):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, n_clusters, n_nodes)
    same = labels[:, None] == labels[None, :]
    adj = (rng.random((n_nodes, n_nodes)) < np.where(same, p_in, p_out)).astype(np.float32)
    adj = np.triu(adj, 1)
    adj = adj + adj.T
    centers = rng.normal(size=(n_clusters, n_feats))
    x = (centers[labels] + 0.8 * rng.normal(size=(n_nodes, n_feats))).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(adj), labels


def laplacian_smoothing(x, adj, t=2):
    a = adj + torch.eye(adj.shape[0])
    d_inv_sqrt = a.sum(1).pow(-0.5)
    norm = d_inv_sqrt[:, None] * a * d_inv_sqrt[None, :]
    lap = torch.eye(adj.shape[0]) - norm
    for _ in range(t):
        x = (torch.eye(adj.shape[0]) - lap) @ x
    return x


def hard_sample_loss(z1, z2, tau=0.9):
    sim = z1 @ z2.T
    pos = sim.diag()
    weights = torch.exp(tau * (1 - pos)).detach()
    neg = torch.logsumexp(sim, dim=1)
    return (weights * (neg - pos)).mean()
