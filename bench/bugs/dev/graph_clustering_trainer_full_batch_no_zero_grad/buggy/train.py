import logging

import torch

from trainer import HSANTrainer
from utils import synthetic_graph

ARGS = {"t": 2, "dims": (64, 32), "lr": 1e-3, "epochs": 30, "tau": 0.9, "seed": 3}


def kmeans(z, k, iters=20):
    centers = z[torch.randperm(len(z))[:k]]
    for _ in range(iters):
        assign = torch.cdist(z, centers).argmin(1)
        centers = torch.stack([z[assign == c].mean(0) if (assign == c).any() else centers[c] for c in range(k)])
    return assign


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(ARGS["seed"])
    x, adj, labels = synthetic_graph(seed=ARGS["seed"])
    trainer = HSANTrainer(x, adj, ARGS)
    best = trainer.train()
    pred = kmeans(trainer.embed(), k=3)
    logging.info("best loss %.4f, cluster sizes %s", best, torch.bincount(pred).tolist())


if __name__ == "__main__":
    main()
