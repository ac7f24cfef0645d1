import argparse
import random

import numpy as np
import torch
from torch.utils.data import DataLoader

from src.config import Config
from src.dataset import MaskedImages
from src.models import InpaintingModel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max_iters", type=int, default=None)
    args = parser.parse_args([])

    config = Config()
    if args.max_iters is not None:
        config["MAX_ITERS"] = args.max_iters

    torch.manual_seed(config.SEED)
    np.random.seed(config.SEED)
    random.seed(config.SEED)

    inpaint_model = InpaintingModel(config)
    train_loader = DataLoader(MaskedImages(size=config.INPUT_SIZE), batch_size=config.BATCH_SIZE, shuffle=True)

    keep_training = True
    while keep_training:
        for images, masks in train_loader:
            inpaint_model.train()
            outputs, gen_loss, dis_loss, logs = inpaint_model.process(images, masks)
            inpaint_model.backward(gen_loss, dis_loss)
            iteration = inpaint_model.iteration

            if iteration % config.LOG_INTERVAL == 0:
                print(iteration, " ".join(f"{k}={v:.4f}" for k, v in logs))
            if iteration >= config.MAX_ITERS:
                keep_training = False
                break


if __name__ == "__main__":
    main()
