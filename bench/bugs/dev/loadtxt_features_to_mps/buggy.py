import io

import numpy as np
import torch
import torch.nn as nn

CSV = "\n".join(" ".join(f"{v:.4f}" for v in row) for row in np.random.default_rng(0).normal(size=(40, 4)))


def load_on_mac(text):
    table = np.loadtxt(io.StringIO(text))
    factors = torch.from_numpy(table[:, :3]).to("mps")
    target = torch.from_numpy(table[:, 3:]).float().to("mps")
    return factors.float(), target


def load_on_cpu(text):
    table = np.loadtxt(io.StringIO(text)).astype(np.float32)
    return torch.from_numpy(table[:, :3]), torch.from_numpy(table[:, 3:])


if torch.backends.mps.is_available():
    x, y = load_on_mac(CSV)
    model = nn.Linear(3, 1).to("mps")
else:
    x, y = load_on_cpu(CSV)
    model = nn.Linear(3, 1)
print(nn.functional.mse_loss(model(x), y).item())
