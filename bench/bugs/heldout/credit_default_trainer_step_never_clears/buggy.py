"""Credit-default scoring on tabular features with categorical embeddings."""
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainConfig:
    n_numeric: int = 8
    cardinalities: tuple = (5, 12, 3)
    emb_dim: int = 4
    hidden: int = 32
    lr: float = 1e-3
    epochs: int = 2
    batch_size: int = 64


class TabularNet(nn.Module):
    def __init__(self, cfg: TrainConfig):
        super().__init__()
        self.embeddings = nn.ModuleList(nn.Embedding(c, cfg.emb_dim) for c in cfg.cardinalities)
        in_dim = cfg.n_numeric + cfg.emb_dim * len(cfg.cardinalities)
        self.mlp = nn.Sequential(nn.BatchNorm1d(in_dim), nn.Linear(in_dim, cfg.hidden), nn.ReLU(),
                                 nn.Linear(cfg.hidden, 1))

    def forward(self, numeric, categorical):
        embedded = [emb(categorical[:, i]) for i, emb in enumerate(self.embeddings)]
        return self.mlp(torch.cat([numeric, *embedded], dim=1)).squeeze(-1)


class DefaultTrainer:
    def __init__(self, model: TabularNet, cfg: TrainConfig, pos_weight: float):
        self.model = model
        self.cfg = cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
        self.loss_fn = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(pos_weight))
        self.history = []

    def training_step(self, batch):
        numeric, categorical, label = batch
        logits = self.model(numeric, categorical)
        loss = self.loss_fn(logits, label)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, loader: DataLoader):
        for epoch in range(self.cfg.epochs):
            self.model.train()
            losses = [self.training_step(batch) for batch in loader]
            self.history.append(sum(losses) / len(losses))
            print(f"epoch {epoch} bce {self.history[-1]:.4f}")


def synthetic_applicants(n: int, cfg: TrainConfig):
    numeric = torch.randn(n, cfg.n_numeric)
    categorical = torch.stack([torch.randint(0, c, (n,)) for c in cfg.cardinalities], dim=1)
    risk = numeric[:, 0] - 0.5 * numeric[:, 3] + 0.3 * (categorical[:, 1] > 6).float()
    label = (risk + 0.5 * torch.randn(n) > 1.0).float()
    return numeric, categorical, label


if __name__ == "__main__":
    cfg = TrainConfig()
    numeric, categorical, label = synthetic_applicants(512, cfg)
    pos_weight = float((label == 0).sum() / label.sum().clamp(min=1))
    loader = DataLoader(TensorDataset(numeric, categorical, label), batch_size=cfg.batch_size, shuffle=True)
    DefaultTrainer(TabularNet(cfg), cfg, pos_weight).fit(loader)
