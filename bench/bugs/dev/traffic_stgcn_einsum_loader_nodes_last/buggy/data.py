import numpy as np
import torch


def load_speed_windows(n_nodes: int = 20, history: int = 12, horizon: int = 3, n_windows: int = 16):
    """Sliding windows over a (time, nodes) speed table plus a time-of-day channel.

    Returns x (windows, features, time, nodes), y (windows, horizon, nodes) and the adjacency matrix.
    """
    rng = np.random.default_rng(8)
    steps = n_windows + history + horizon
    speed = 60 + 5 * rng.standard_normal((steps, n_nodes))
    tod = np.tile((np.arange(steps) % 288 / 288.0)[:, None], (1, n_nodes))
    table = np.stack([speed / 70.0, tod], axis=1)
    x = np.stack([table[i:i + history] for i in range(n_windows)]).transpose(0, 2, 1, 3)
    y = np.stack([speed[i + history:i + history + horizon] / 70.0 for i in range(n_windows)])
    adj = (rng.random((n_nodes, n_nodes)) > 0.8).astype(np.float32)
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32), torch.tensor(adj)
