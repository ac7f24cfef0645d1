import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, random_split

from config import TurbineConfig
from data import TurbineDataset, synthetic_scada
from model import PowerCurveNet

log = logging.getLogger("turbine")


class Trainer:
    def __init__(self, model: PowerCurveNet, cfg: TurbineConfig):
        self.model = model
        self.cfg = cfg
        self.criterion = nn.MSELoss()
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)

    def train_epoch(self, loader: DataLoader) -> float:
        self.model.train()
        total, seen = 0.0, 0
        for features, target in loader:
            pred = self.model(features)
            loss = self.criterion(pred, target)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item() * len(target)
            seen += len(target)
        return total / seen

    @torch.no_grad()
    def evaluate(self, loader: DataLoader) -> float:
        self.model.eval()
        errors = []
        for features, target in loader:
            errors.append((self.model(features).squeeze(-1) - target).abs())
        return torch.cat(errors).mean().item()


def main():
    logging.basicConfig(level=logging.INFO)
    cfg = TurbineConfig()
    x, power = synthetic_scada(cfg.n_samples, len(cfg.features))
    dataset = TurbineDataset(x, power)
    train_set, val_set = random_split(dataset, [200, cfg.n_samples - 200], generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=cfg.batch_size)

    model = PowerCurveNet(len(cfg.features), cfg.hidden_sizes, cfg.dropout)
    trainer = Trainer(model, cfg)
    for epoch in range(cfg.epochs):
        train_mse = trainer.train_epoch(train_loader)
        val_mae = trainer.evaluate(val_loader)
        log.info("epoch %d train mse %.4f val mae %.4f", epoch, train_mse, val_mae)


if __name__ == "__main__":
    main()
