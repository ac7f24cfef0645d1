import logging
import sys

import torch
from torch.nn import functional as F

from config import load_config
from model import RationalMLP

log = logging.getLogger("rational")


def make_data(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    x = torch.rand(cfg["n_train"], 1, generator=g) * 6 - 3
    y = torch.sin(x) + cfg["noise"] * torch.randn(x.shape, generator=g)
    return x, y


def main(argv):
    logging.basicConfig(level=logging.INFO)
    cfg = load_config(argv)
    torch.manual_seed(cfg["data"]["seed"])
    x, y = make_data(cfg["data"])
    model = RationalMLP(cfg["model"])
    log.info("%s", model)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["optim"]["lr"])
    bs = cfg["optim"]["batch_size"]
    for epoch in range(cfg["optim"]["epochs"]):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), bs):
            idx = perm[i:i + bs]
            loss = F.mse_loss(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        log.info("epoch %d mse %.4f", epoch, loss.item())


if __name__ == "__main__":
    main(sys.argv[1:])
