import numpy as np
import torch
from torch.utils.data import Dataset


def synthetic_ratings(n_users: int, n_items: int, n_ratings: int, seed: int = 0) -> dict:
    """A MovieLens-like table as columns (what a csv reader hands back)."""
    rng = np.random.default_rng(seed)
    taste = rng.normal(size=(n_users, 4))
    genre = rng.normal(size=(n_items, 4))
    users = rng.integers(0, n_users, size=n_ratings)
    items = rng.integers(0, n_items, size=n_ratings)
    raw = (taste[users] * genre[items]).sum(1) + rng.normal(scale=0.3, size=n_ratings)
    stars = np.clip(np.round(3 + raw), 1, 5)
    return {"userId": users, "movieId": items, "rating": stars, "timestamp": np.arange(n_ratings)}


class RatingsDataset(Dataset):
    def __init__(self, table: dict):
        self.users = torch.as_tensor(table["userId"], dtype=torch.long)
        self.items = torch.as_tensor(table["movieId"], dtype=torch.long)
        self.ratings = torch.as_tensor(table["rating"], dtype=torch.float32)

    def __len__(self):
        return len(self.ratings)

    def __getitem__(self, i):
        return self.users[i], self.items[i], self.ratings[i]
