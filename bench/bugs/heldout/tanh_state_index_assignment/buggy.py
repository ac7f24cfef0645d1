import torch
from torch import nn


class GatedControlPolicy(nn.Module):
    """Bounded actions in [-1, 1]; the first actuator is locked to 0 while calibrating."""

    def __init__(self, obs_dim: int = 10, act_dim: int = 4, calibrating: bool = True) -> None:
        super().__init__()
        self.calibrating = calibrating
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, act_dim))

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        actions = torch.tanh(self.body(obs))
        if self.calibrating:
            actions[:, 0] = 0.0
        return actions


policy = GatedControlPolicy()
opt = torch.optim.SGD(policy.parameters(), lr=0.01)
obs = torch.randn(16, 10)
expert_actions = torch.rand(16, 4) * 2 - 1
loss = nn.functional.mse_loss(policy(obs), expert_actions)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
