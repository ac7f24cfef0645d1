import argparse
import logging

import torch

from config import RunnerConfig
from runner import Runner


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=6)
    parser.add_argument("--n-rays", type=int, default=64)
    args = parser.parse_args([])
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = RunnerConfig(iters=args.iters, n_rays=args.n_rays)
    Runner(cfg).train()


if __name__ == "__main__":
    main()
