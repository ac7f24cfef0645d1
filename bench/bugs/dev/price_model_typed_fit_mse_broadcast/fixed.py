from typing import List

import torch
import torch.nn.functional as F
from torch import nn


class PricePredictor(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(13, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def fit(model: PricePredictor, features: torch.Tensor, prices: torch.Tensor, epochs: int = 2) -> List[float]:
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    losses = []
    for _ in range(epochs):
        for start in range(0, len(features), 32):
            x, y = features[start:start + 32], prices[start:start + 32]
            loss = F.mse_loss(model(x).squeeze(1), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    return losses


features = torch.randn(64, 13)
prices = torch.rand(64) * 50
print(fit(PricePredictor(), features, prices)[-1])
