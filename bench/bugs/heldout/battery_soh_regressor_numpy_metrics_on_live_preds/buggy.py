"""State-of-health estimation for Li-ion cells from charge-curve features; metrics computed with numpy."""
import numpy as np
import torch
import torch.nn as nn


def load_cycles(n_cells=6, cycles=40, n_feats=5, seed=0):
    rng = np.random.default_rng(seed)
    feats, soh = [], []
    for _ in range(n_cells):
        fade = rng.uniform(0.002, 0.006)
        for c in range(cycles):
            health = 1.0 - fade * c + rng.normal(scale=0.005)
            feats.append(rng.normal(size=n_feats) + health * np.arange(1, n_feats + 1))
            soh.append(health)
    return np.asarray(feats, dtype=np.float32), np.asarray(soh, dtype=np.float32)


def regression_report(y_true: np.ndarray, y_pred: np.ndarray) -> dict:
    err = y_pred - y_true
    ss_res = float(np.sum(err ** 2))
    ss_tot = float(np.sum((y_true - y_true.mean()) ** 2))
    return {"rmse": float(np.sqrt(np.mean(err ** 2))), "mae": float(np.mean(np.abs(err))), "r2": 1 - ss_res / ss_tot}


class SOHNet(nn.Module):
    def __init__(self, n_feats=5, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feats, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    x, y = load_cycles()
    split = int(0.8 * len(x))
    x_train, y_train = torch.from_numpy(x[:split]), torch.from_numpy(y[:split])
    x_test, y_test = torch.from_numpy(x[split:]), y[split:]
    mean, std = x_train.mean(0), x_train.std(0)
    model = SOHNet()
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=20)

    def closure():
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model((x_train - mean) / std), y_train)
        loss.backward()
        return loss

    for epoch in range(3):
        loss = optimizer.step(closure)
        print(f"epoch {epoch} train mse {loss.item():.6f}")

    y_pred = model((x_test - mean) / std).numpy()
    print(regression_report(y_test, y_pred))


if __name__ == "__main__":
    main()
