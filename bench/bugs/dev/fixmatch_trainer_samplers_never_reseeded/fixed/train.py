import argparse
import logging

import torch

from data import SSLDataset
from model import Classifier
from trainer import FixMatchTrainer


def get_args():
    parser = argparse.ArgumentParser(description="FixMatch")
    parser.add_argument("--world-size", type=int, default=2)
    parser.add_argument("--rank", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--mu", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.03)
    parser.add_argument("--T", type=float, default=1.0)
    parser.add_argument("--threshold", type=float, default=0.95)
    parser.add_argument("--lambda-u", type=float, default=1.0)
    return parser.parse_args([])


def main():
    logging.basicConfig(level=logging.INFO)
    args = get_args()
    torch.manual_seed(0)
    trainer = FixMatchTrainer(args, Classifier(), SSLDataset(32, labeled=True), SSLDataset(64, labeled=False, seed=1))
    trainer.fit()


if __name__ == "__main__":
    main()
