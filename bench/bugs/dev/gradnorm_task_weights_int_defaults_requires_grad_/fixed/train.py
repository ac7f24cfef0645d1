import logging

import torch
from torch.nn import functional as F

from config import MultiTaskConfig
from gradnorm import GradNormBalancer
from model import HardSharingNet


def sample_batch(cfg, g):
    x = torch.randn(cfg.batch_size, cfg.in_features, generator=g)
    targets = {"depth": x[:, :3].sum(1, keepdim=True), "normals": 10.0 * x[:, 3:4].tanh()}
    return x, targets


def main():
    logging.basicConfig(level=logging.INFO)
    cfg = MultiTaskConfig()
    torch.manual_seed(cfg.seed)
    g = torch.Generator().manual_seed(cfg.seed)
    model = HardSharingNet(cfg.in_features, cfg.shared_dim, cfg.tasks)
    balancer = GradNormBalancer(cfg, model.shared)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        x, targets = sample_batch(cfg, g)
        preds = model(x)
        task_losses = torch.stack([F.mse_loss(preds[t], targets[t]) for t in cfg.tasks])
        optimizer.zero_grad()
        balancer.weighted_loss(task_losses).backward(retain_graph=True)
        balancer.update_weights(task_losses)
        optimizer.step()
        if step % 5 == 0:
            logging.info("step %d losses %s weights %s", step, task_losses.tolist(), balancer.weights.tolist())


if __name__ == "__main__":
    main()
