"""PPO critic update for a VLA-style policy: rollout buffers store values and returns as [B, 1] columns."""
import logging
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

log = logging.getLogger("ppo")


@dataclass
class PPOConfig:
    obs_dim: int = 10
    hidden: int = 32
    clip_value: float = 0.2
    value_coef: float = 0.5
    epochs: int = 3
    batch_size: int = 16
    extra: dict = field(default_factory=dict)


class ValueHead(nn.Module):
    def __init__(self, cfg: PPOConfig):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(cfg.obs_dim, cfg.hidden), nn.Tanh(), nn.Linear(cfg.hidden, 1))

    def forward(self, obs):
        return self.net(obs).squeeze(-1)


@dataclass
class RolloutBatch:
    obs: torch.Tensor
    prev_values: torch.Tensor
    returns: torch.Tensor


def make_rollout(cfg: PPOConfig, n: int) -> RolloutBatch:
    obs = torch.randn(n, cfg.obs_dim)
    returns = obs[:, :1] * 0.5 + 0.1 * torch.randn(n, 1)
    prev_values = returns + 0.2 * torch.randn(n, 1)
    return RolloutBatch(obs, prev_values, returns)


def critic_loss(values, prev_values, returns, clip):
    clipped = prev_values + (values - prev_values).clamp(-clip, clip)
    unclipped_loss = F.mse_loss(values, returns, reduction="none")
    clipped_loss = F.mse_loss(clipped, returns, reduction="none")
    return torch.max(unclipped_loss, clipped_loss).mean()


def update_critic(cfg: PPOConfig, head: ValueHead, opt, rollout: RolloutBatch):
    for epoch in range(cfg.epochs):
        perm = torch.randperm(rollout.obs.shape[0])
        for start in range(0, len(perm), cfg.batch_size):
            idx = perm[start:start + cfg.batch_size]
            values = head(rollout.obs[idx]).unsqueeze(-1)
            loss = cfg.value_coef * critic_loss(values, rollout.prev_values[idx], rollout.returns[idx], cfg.clip_value)
            opt.zero_grad()
            loss.backward()
            opt.step()
        log.info("epoch %d value loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = PPOConfig()
    head = ValueHead(cfg)
    opt = torch.optim.Adam(head.parameters(), lr=3e-4)
    update_critic(cfg, head, opt, make_rollout(cfg, 64))
