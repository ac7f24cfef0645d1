import logging
import os

import torch

from spd.data import create_data_loader
from spd.engine import train_one_epoch
from spd.models import ToyModel

CONFIG = {
    "n_samples": 256,
    "n_features": 10,
    "n_hidden": 4,
    "feature_probability": 0.1,
    "batch_size": 32,
    "lr": 5e-3,
    "epochs": 3,
    "seed": 0,
}


def main():
    logging.basicConfig(level=logging.INFO)
    rank = int(os.environ.get("RANK", 0))
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    torch.manual_seed(CONFIG["seed"])
    loader = create_data_loader(CONFIG, rank, world_size)
    model = ToyModel(CONFIG["n_features"], CONFIG["n_hidden"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=CONFIG["lr"])
    importance = 0.9 ** torch.arange(CONFIG["n_features"])
    for epoch in range(CONFIG["epochs"]):
        loss = train_one_epoch(model, loader, optimizer, epoch, importance)
        if rank == 0:
            logging.info("epoch %d loss %.5f", epoch, loss)


if __name__ == "__main__":
    main()
