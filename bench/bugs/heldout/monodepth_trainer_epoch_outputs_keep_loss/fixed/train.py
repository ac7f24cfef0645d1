import logging

import torch

from model import SelfSupModel
from trainer import BaseTrainer


def synthetic_loader(n_batches=10, batch_size=2, size=32):
    gen = torch.Generator().manual_seed(0)
    for _ in range(n_batches):
        rgb = torch.rand(batch_size, 3, size, size, generator=gen)
        yield {"rgb": rgb, "proxy_depth": rgb.mean(1, keepdim=True)}


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    model = SelfSupModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
    BaseTrainer(max_epochs=1).fit(model, list(synthetic_loader()), optimizer)


if __name__ == "__main__":
    main()
