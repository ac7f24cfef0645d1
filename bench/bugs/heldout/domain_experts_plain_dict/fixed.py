from typing import Dict, Sequence

import torch
from torch import nn


class DomainMixture(nn.Module):
    def __init__(self, domains: Sequence[str], dim: int = 16, classes: int = 3) -> None:
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(dim, 32), nn.ReLU())
        self.experts = nn.ModuleDict({name: nn.Linear(32, classes) for name in domains})

    def forward(self, x: torch.Tensor, domain: str) -> torch.Tensor:
        return self.experts[domain](self.shared(x))


model = DomainMixture(["news", "reviews", "tweets"])
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for domain in ["news", "tweets"]:
    x, y = torch.randn(12, 16), torch.randint(0, 3, (12,))
    loss = nn.functional.cross_entropy(model(x, domain), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(sorted(model.state_dict().keys()))
