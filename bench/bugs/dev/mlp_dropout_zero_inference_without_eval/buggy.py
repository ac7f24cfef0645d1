from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    in_dim: int = 10
    hidden: int = 32
    out_dim: int = 1
    dropout: float = 0.0


class Regressor(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(cfg.in_dim, cfg.hidden), nn.ReLU(), nn.Dropout(cfg.dropout), nn.Linear(cfg.hidden, cfg.out_dim)
        )

    def forward(self, x):
        return self.net(x)


cfg = Config()
model = Regressor(cfg)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x, y = torch.randn(64, 10), torch.randn(64, 1)
for _ in range(5):
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

with torch.no_grad():
    preds = model(torch.randn(8, 10))
print(preds.squeeze(1))
