import logging

import torch

from net import PolicyValueNet
from trainer import ADITrainer

CONFIG = {"lr": 1e-3, "batch_size": 32, "max_depth": 8, "steps": 6, "report_every": 2, "seed": 0}


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    ADITrainer(PolicyValueNet(), CONFIG).run()
