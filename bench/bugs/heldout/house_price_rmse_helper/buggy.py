import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

FEATURES = ["rooms", "area", "age", "distance", "tax"]


def load_frame(n=256, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, len(FEATURES))).astype(np.float32)
    price = x @ rng.normal(size=len(FEATURES)).astype(np.float32) + 0.1 * rng.normal(size=n).astype(np.float32)
    return x, price


def standardize(x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def rmse(pred, target):
    return torch.sqrt(((pred - target) ** 2).mean())


class PriceRegressor(nn.Module):
    def __init__(self, n_features, hidden=32):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.layers(x)


def fit(model, loader, epochs=3, lr=1e-2):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        for xb, yb in loader:
            loss = rmse(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} rmse {loss.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    x, price = load_frame()
    dataset = TensorDataset(torch.from_numpy(standardize(x)), torch.from_numpy(price))
    model = PriceRegressor(len(FEATURES))
    fit(model, DataLoader(dataset, batch_size=32, shuffle=True))
