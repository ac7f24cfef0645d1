from typing import Iterable, Tuple

import torch
from torch import nn, Tensor


class RegressionTrainer:
    """Owns nothing but what it is given: the network, its optimizer and the loss."""

    def __init__(self, net: nn.Module, optimizer: torch.optim.Optimizer, loss_fn: nn.Module) -> None:
        self.net = net
        self.optimizer = optimizer
        self.loss_fn = loss_fn

    def run_epoch(self, batches: Iterable[Tuple[Tensor, Tensor]]) -> float:
        self.net.train()
        self.net.zero_grad(set_to_none=True)
        running = 0.0
        for features, target in batches:
            pred = self.net(features).squeeze(-1)
            loss = self.loss_fn(pred, target)
            loss.backward()
            self.optimizer.step()
            running += loss.item()
        return running


def make_batches(n_batches: int = 6, batch_size: int = 8):
    return [(torch.randn(batch_size, 5), torch.randn(batch_size)) for _ in range(n_batches)]


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    trainer = RegressionTrainer(net, optimizer, nn.SmoothL1Loss())
    for epoch in range(2):
        print(epoch, trainer.run_epoch(make_batches()))
