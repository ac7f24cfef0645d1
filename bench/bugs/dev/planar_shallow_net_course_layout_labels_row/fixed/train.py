import argparse
import logging

import torch

from data import load_planar_dataset
from model import ShallowNet
from trainer import FullBatchTrainer


def main():
    parser = argparse.ArgumentParser(description="planar data classification with one hidden layer")
    parser.add_argument("--n-h", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--lr", type=float, default=1.2)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(3)

    X, Y = load_planar_dataset()
    n_x, m = X.shape
    logging.info("X %s, Y %s, %d training examples", X.shape, Y.shape, m)

    X_train = torch.from_numpy(X.T)
    Y_train = torch.from_numpy(Y.T)
    trainer = FullBatchTrainer(ShallowNet(n_x, args.n_h), learning_rate=args.lr)
    trainer.fit(X_train, Y_train, num_iterations=args.iterations)
    accuracy = (trainer.predict(X_train) == torch.from_numpy(Y.T)).float().mean().item()
    logging.info("accuracy: %.1f%%", 100 * accuracy)


if __name__ == "__main__":
    main()
