import logging

import torch

from model import PointCompletionNet, chamfer_distance
from utils import AverageMeter

logging.basicConfig(level=logging.INFO, format="%(message)s")
log = logging.getLogger("runner")


class Runner:
    def __init__(self, model: PointCompletionNet, lr: float = 1e-3):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def train_epoch(self, batches) -> AverageMeter:
        self.model.train()
        losses = AverageMeter("cd")
        for partial, complete in batches:
            pred = self.model(partial)
            loss = chamfer_distance(pred, complete)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            losses.update(loss, partial.size(0))
        return losses


def make_batches(n_batches: int = 8, batch_size: int = 4):
    out = []
    for _ in range(n_batches):
        complete = torch.randn(batch_size, 64, 3)
        partial = complete[:, :40]
        out.append((partial, complete))
    return out


def main() -> None:
    torch.manual_seed(0)
    runner = Runner(PointCompletionNet())
    batches = make_batches()
    for epoch in range(2):
        meter = runner.train_epoch(batches)
        log.info("epoch %d %s", epoch, meter)


if __name__ == "__main__":
    main()
