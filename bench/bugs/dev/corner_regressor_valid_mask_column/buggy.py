import torch
from torch import nn


class CornerNet(nn.Module):
    """Predicts the offset to the nearest grid corner for each detected edge point."""

    def __init__(self, in_features=6, hidden=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_features, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, points):
        return self.mlp(points)


def corner_loss(offsets, targets, edge_lengths):
    valid = (edge_lengths > 2.0).float().unsqueeze(1)
    offsets = offsets * valid
    dist = (offsets - targets * valid).norm(dim=-1)
    return (dist * valid).sum() / valid.sum().clamp(min=1.0)


class Trainer:
    def __init__(self, model: CornerNet, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, points, targets, edge_lengths):
        self.optimizer.zero_grad()
        loss = corner_loss(self.model(points), targets, edge_lengths)
        loss.backward()
        self.optimizer.step()
        return loss.item()


def make_batch(n=10):
    points = torch.randn(n, 6)
    targets = points[:, :2] * 0.5
    edge_lengths = torch.rand(n) * 5
    return points, targets, edge_lengths


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(CornerNet())
    for it in range(5):
        print(it, trainer.step(*make_batch()))
