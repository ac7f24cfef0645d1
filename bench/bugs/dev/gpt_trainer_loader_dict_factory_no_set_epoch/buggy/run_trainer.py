import logging
import os

import torch

from minigpt import GPT, TrainConfig, Trainer


def main():
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    cfg = TrainConfig(
        rank=int(os.environ.get("RANK", 0)),
        world_size=int(os.environ.get("WORLD_SIZE", 1)),
    )
    torch.manual_seed(cfg.seed)
    model = GPT(cfg)
    n_params = sum(p.numel() for p in model.parameters())
    logging.info("model has %.2fK parameters", n_params / 1e3)
    trainer = Trainer(model, cfg)
    history = trainer.fit()
    logging.info("final val loss %.4f", history[-1][1])


if __name__ == "__main__":
    main()
