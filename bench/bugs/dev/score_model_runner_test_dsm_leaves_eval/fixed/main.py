import argparse
import logging

import torch

from runners.anneal_runner import AnnealRunner

DEFAULTS = {
    "image_size": 8,
    "num_classes": 10,
    "sigma_begin": 1.0,
    "sigma_end": 0.01,
    "batch_size": 8,
    "lr": 1e-3,
    "n_epochs": 2,
    "iters_per_epoch": 4,
    "snapshot_freq": 3,
    "seed": 1234,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runner", default="AnnealRunner")
    parser.add_argument("--seed", type=int, default=DEFAULTS["seed"])
    args = parser.parse_args([])
    torch.manual_seed(args.seed)
    config = dict(DEFAULTS, seed=args.seed)
    runner = {"AnnealRunner": AnnealRunner}[args.runner](config)
    runner.train()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
