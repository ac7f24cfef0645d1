import argparse
import logging

import torch

from config import FactorVAEConfig
from data import return_data
from solver import Solver


def parse_args():
    parser = argparse.ArgumentParser(description="FactorVAE")
    parser.add_argument("--max_iter", type=int, default=6)
    parser.add_argument("--gamma", type=float, default=6.4)
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args([])


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    torch.manual_seed(args.seed)
    cfg = FactorVAEConfig(max_iter=args.max_iter, gamma=args.gamma, batch_size=args.batch_size, seed=args.seed)
    solver = Solver(cfg, return_data(cfg))
    history = solver.train()
    print("final D_acc", history["D_acc"][-1])


if __name__ == "__main__":
    main()
