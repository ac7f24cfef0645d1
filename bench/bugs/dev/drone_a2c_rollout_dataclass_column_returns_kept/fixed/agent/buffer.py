from dataclasses import dataclass

import torch

from agent.gae import compute_gae


@dataclass
class RolloutBatch:
    obs: torch.Tensor
    actions: torch.Tensor
    log_probs: torch.Tensor
    values: torch.Tensor
    returns: torch.Tensor
    advantages: torch.Tensor


class RolloutBuffer:
    def __init__(self):
        self.obs, self.actions, self.log_probs, self.values, self.rewards, self.dones = [], [], [], [], [], []

    def add(self, obs, action, log_prob, value, reward, done):
        self.obs.append(obs)
        self.actions.append(action)
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)
        self.dones.append(float(done))

    def finish(self, last_value, gamma, lam) -> RolloutBatch:
        values = torch.stack(self.values).view(-1, 1)
        rewards = torch.tensor(self.rewards, dtype=torch.float32).unsqueeze(-1)
        dones = torch.tensor(self.dones, dtype=torch.float32).unsqueeze(-1)
        advantages, returns = compute_gae(rewards, values, dones, last_value, gamma, lam)
        batch = RolloutBatch(
            obs=torch.stack(self.obs),
            actions=torch.stack(self.actions),
            log_probs=torch.stack(self.log_probs).view(-1, 1),
            values=values,
            returns=returns,
            advantages=(advantages - advantages.mean()) / (advantages.std() + 1e-8),
        )
        self.__init__()
        return batch
