import logging

import torch
import torch.nn.functional as F

from agent.buffer import RolloutBatch
from agent.nets import PolicyValueNet

log = logging.getLogger(__name__)


class A2CAgent:
    def __init__(self, net: PolicyValueNet, lr: float = 7e-4, value_coef: float = 0.5, entropy_coef: float = 0.01,
                 max_grad_norm: float = 0.5):
        self.net = net
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr)
        self.value_coef = value_coef
        self.entropy_coef = entropy_coef
        self.max_grad_norm = max_grad_norm

    @torch.no_grad()
    def act(self, obs):
        dist, value = self.net(obs)
        action = dist.sample()
        return action, dist.log_prob(action), value

    def update(self, batch: RolloutBatch):
        dist, values = self.net(batch.obs)
        log_probs = dist.log_prob(batch.actions).unsqueeze(-1)
        policy_loss = -(log_probs * batch.advantages).mean()
        value_loss = F.mse_loss(values, batch.returns)
        entropy = dist.entropy().mean()
        loss = policy_loss + self.value_coef * value_loss - self.entropy_coef * entropy
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.max_grad_norm)
        self.optimizer.step()
        return {"policy": policy_loss.item(), "value": value_loss.item(), "entropy": entropy.item()}
