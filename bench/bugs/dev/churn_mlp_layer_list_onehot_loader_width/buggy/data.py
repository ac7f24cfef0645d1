import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from config import BATCH_SIZE, CATEGORICAL_COLUMNS, NUMERIC_COLUMNS


def synthetic_customers(n: int = 64, seed: int = 2) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    table = {name: rng.gamma(2.0, 10.0, n) for name in NUMERIC_COLUMNS}
    for name, levels in CATEGORICAL_COLUMNS.items():
        table[name] = rng.choice(levels, n)
    table["churned"] = (rng.random(n) < 0.3).astype(np.float32)
    return table


def encode(table: dict[str, np.ndarray]) -> np.ndarray:
    numeric = np.stack([table[c] for c in NUMERIC_COLUMNS], axis=1)
    numeric = (numeric - numeric.mean(0)) / (numeric.std(0) + 1e-6)
    onehots = [(table[c][:, None] == np.array(levels)[None]).astype(np.float32)
               for c, levels in CATEGORICAL_COLUMNS.items()]
    return np.concatenate([numeric] + onehots, axis=1).astype(np.float32)


def make_loader() -> DataLoader:
    table = synthetic_customers()
    x = torch.from_numpy(encode(table))
    y = torch.from_numpy(table["churned"]).unsqueeze(1)
    return DataLoader(TensorDataset(x, y), batch_size=BATCH_SIZE, shuffle=True, drop_last=True)
