from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class HashConfig:
    bits: int = 16
    num_train: int = 64
    num_classes: int = 5
    alpha: float = 0.1
    batch_size: int = 8


class HashNet(nn.Module):
    def __init__(self, in_dim: int, bits: int) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 128), nn.ReLU(), nn.Linear(128, bits))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.net(x))


class PairwiseHashLoss(nn.Module):
    """Keeps a code bank U of every training image and pulls codes of same-class pairs together."""

    def __init__(self, cfg: HashConfig) -> None:
        super().__init__()
        self.alpha = cfg.alpha
        self.register_buffer("U", torch.zeros(cfg.num_train, cfg.bits))
        self.register_buffer("Y", torch.zeros(cfg.num_train, cfg.num_classes))

    def forward(self, u: torch.Tensor, y: torch.Tensor, ind: torch.Tensor) -> torch.Tensor:
        self.U[ind] = u.detach()
        self.Y[ind] = y
        s = (y @ self.Y.t() > 0).float()
        dist = (u.unsqueeze(1) - self.U.unsqueeze(0)).pow(2).sum(dim=2)
        margin = torch.clamp(u.size(1) / 2 - dist, min=0)
        likelihood = (s * dist + (1 - s) * margin).mean()
        quantization = self.alpha * (u - u.sign()).pow(2).mean()
        return likelihood + quantization


def train(cfg: HashConfig, epochs: int = 2) -> None:
    feats = torch.randn(cfg.num_train, 32)
    labels = nn.functional.one_hot(torch.randint(0, cfg.num_classes, (cfg.num_train,)), cfg.num_classes).float()
    net, criterion = HashNet(32, cfg.bits), PairwiseHashLoss(cfg)
    optimizer = torch.optim.RMSprop(net.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for ind in torch.randperm(cfg.num_train).split(cfg.batch_size):
            loss = criterion(net(feats[ind]), labels[ind], ind)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    train(HashConfig())
