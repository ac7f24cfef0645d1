from dataclasses import dataclass, field

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class TrainConfig:
    obs_dim: int = 17
    n_joints: int = 6
    hidden: tuple = (64, 64)
    batch_size: int = 8
    epochs: int = 3
    lr: float = 1e-3
    history: list = field(default_factory=list)


class RolloutDataset(Dataset):
    """Observations from simulated rollouts paired with the joint angles that produced them."""

    def __init__(self, n, obs_dim, n_joints, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.angles = torch.rand(n, n_joints, generator=g) * 3.14 - 1.57
        mixing = torch.randn(n_joints, obs_dim, generator=g)
        self.obs = torch.sin(self.angles) @ mixing + 0.01 * torch.randn(n, obs_dim, generator=g)

    def __len__(self):
        return len(self.obs)

    def __getitem__(self, i):
        return self.obs[i], self.angles[i]


def mlp(sizes):
    layers = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.SiLU()]
    return nn.Sequential(*layers[:-1])


def run_epoch(model, loader, optimizer, loss_fn):
    epoch_loss = 0.0
    for obs, angles in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(obs), angles)
        loss.backward()
        optimizer.step()
        epoch_loss += loss
    return epoch_loss / len(loader)


def main(cfg: TrainConfig):
    torch.manual_seed(0)
    model = mlp([cfg.obs_dim, *cfg.hidden, cfg.n_joints])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loader = DataLoader(RolloutDataset(96, cfg.obs_dim, cfg.n_joints), batch_size=cfg.batch_size, shuffle=True)
    for epoch in range(cfg.epochs):
        mean_loss = run_epoch(model, loader, optimizer, nn.SmoothL1Loss())
        cfg.history.append(float(mean_loss))
        print(f"epoch {epoch}: {cfg.history[-1]:.4f}")


if __name__ == "__main__":
    main(TrainConfig())
