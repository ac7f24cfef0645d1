import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

import config
from dataset import StructureEnergies
from models import build_model

logger = logging.getLogger("energy")


class EnergyTask:
    def __init__(self, model, lr):
        self.model = model
        self.loss_fn = nn.MSELoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def compute_loss(self, batch):
        pred = self.model(batch["x"]).squeeze(-1)
        return self.loss_fn(pred, batch["energy"])

    def training_step(self, batch):
        self.optimizer.zero_grad()
        loss = self.compute_loss(batch)
        loss.backward()
        self.optimizer.step()
        return loss.item()


def main():
    torch.manual_seed(0)
    ds = StructureEnergies(config.TRAIN["n_structures"], config.MODEL["n_atoms_features"])
    loader = DataLoader(ds, batch_size=config.TRAIN["batch_size"], shuffle=True)
    task = EnergyTask(build_model(config.MODEL), config.TRAIN["lr"])
    for epoch in range(config.TRAIN["epochs"]):
        losses = [task.training_step(batch) for batch in loader]
        logger.info("epoch %d loss %.4f", epoch, sum(losses) / len(losses))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
