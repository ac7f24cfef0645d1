import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from losses import weighted_quality_loss
from model import GraspQualityNet

logger = logging.getLogger(__name__)


class GraspTrainer:
    def __init__(self, model: GraspQualityNet, lr: float = 1e-3):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.step_count = 0

    def step(self, depth, success, weights) -> float:
        self.model.train()
        logits = self.model(depth)
        loss = weighted_quality_loss(logits, success, weights)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.step_count += 1
        return loss.mean().item()


def synthetic_grasps(n: int = 32, size: int = 24) -> TensorDataset:
    depth = torch.rand(n, 1, size, size)
    success = (depth.mean(dim=(1, 2, 3)) > 0.5).float()
    weights = torch.rand(n) + 0.5
    return TensorDataset(depth, success, weights)


def main() -> None:
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    trainer = GraspTrainer(GraspQualityNet())
    loader = DataLoader(synthetic_grasps(), batch_size=8, shuffle=True)
    for epoch in range(2):
        losses = [trainer.step(*batch) for batch in loader]
        logger.info("epoch %d loss %.4f (%d steps)", epoch, sum(losses) / len(losses), trainer.step_count)


if __name__ == "__main__":
    main()
