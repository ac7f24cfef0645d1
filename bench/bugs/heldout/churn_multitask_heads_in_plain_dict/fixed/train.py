import logging

import torch
import torch.nn.functional as F

import config
from model import MultiTaskNet

log = logging.getLogger("mtl")


def synthetic_customers(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, config.FEATURES, generator=g)
    ys = {name: torch.randint(0, k, (n,), generator=g) for name, k in config.TASKS.items()}
    return x, ys


def main():
    torch.manual_seed(0)
    x, ys = synthetic_customers(64)
    model = MultiTaskNet(config.FEATURES, config.SHARED, config.TASKS)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    log.info("trainable parameters: %d", sum(p.numel() for p in model.parameters()))
    for epoch in range(config.EPOCHS):
        for i in range(0, len(x), config.BATCH):
            xb = x[i : i + config.BATCH]
            outputs = model(xb)
            loss = sum(F.cross_entropy(outputs[t], ys[t][i : i + config.BATCH]) for t in config.TASKS)
            opt.zero_grad()
            loss.backward()
            opt.step()
        log.info("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
