import torch
import torch.nn as nn

from stgnn.layers import STBlock


class TrafficForecaster(nn.Module):
    def __init__(self, in_features: int = 2, hidden: int = 16, horizon: int = 3, history: int = 12) -> None:
        super().__init__()
        self.block1 = STBlock(in_features, hidden)
        self.block2 = STBlock(hidden, hidden)
        self.head = nn.Conv2d(hidden, horizon, kernel_size=(history, 1))

    def forward(self, x: torch.Tensor, support: torch.Tensor) -> torch.Tensor:
        h = self.block2(self.block1(x, support), support)
        return self.head(h).squeeze(2)
