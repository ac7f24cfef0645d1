import torch
from torch import nn


def weighted_mean(values: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """Mean of per-sample `values`, each counted `weights` times."""
    return (values * weights).sum() / weights.sum()


class RiskModel(nn.Module):
    def __init__(self, n_features: int = 14) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x).squeeze(-1)


def load_claims(n: int = 64):
    """Features, 0/1 outcome and the exposure weight column of each policy."""
    features = torch.randn(n, 14)
    outcome = (torch.rand(n) > 0.8).float()
    exposure = torch.rand(n, 1) + 0.5
    return features, outcome, exposure


def train_epoch(model: RiskModel, optimizer, features, outcome, exposure, batch_size: int = 16) -> float:
    for start in range(0, len(features), batch_size):
        sl = slice(start, start + batch_size)
        logits = model(features[sl])
        losses = nn.functional.binary_cross_entropy_with_logits(logits, outcome[sl], reduction="none")
        loss = weighted_mean(losses, exposure[sl].squeeze(1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    model = RiskModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    print("last batch loss", train_epoch(model, optimizer, *load_claims()))
