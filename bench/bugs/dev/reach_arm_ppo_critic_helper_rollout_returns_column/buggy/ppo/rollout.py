from dataclasses import dataclass, fields

import numpy as np
import torch


@dataclass
class Rollout:
    obs: torch.Tensor         # (N, obs_dim)
    actions: torch.Tensor     # (N, act_dim)
    log_probs: torch.Tensor   # (N,)
    advantages: torch.Tensor  # (N,)
    returns: torch.Tensor     # (N, 1), as the value targets are stored by the buffer

    def __len__(self):
        return self.obs.shape[0]

    def minibatch(self, idx):
        return Rollout(**{f.name: getattr(self, f.name)[idx] for f in fields(self)})


class RolloutStorage:
    def __init__(self, gamma: float = 0.99, lam: float = 0.95):
        self.gamma, self.lam = gamma, lam
        self.reset()

    def reset(self):
        self.obs, self.actions, self.log_probs, self.rewards, self.values, self.dones = [], [], [], [], [], []

    def push(self, obs, action, log_prob, reward, value, done):
        self.obs.append(obs)
        self.actions.append(action)
        self.log_probs.append(log_prob)
        self.rewards.append(reward)
        self.values.append(value)
        self.dones.append(done)

    def build(self, last_value: float) -> Rollout:
        rewards = np.asarray(self.rewards, dtype=np.float32)
        values = np.asarray(self.values + [last_value], dtype=np.float32)
        dones = np.asarray(self.dones, dtype=np.float32)
        adv = np.zeros_like(rewards)
        gae = 0.0
        for t in reversed(range(len(rewards))):
            delta = rewards[t] + self.gamma * values[t + 1] * (1 - dones[t]) - values[t]
            gae = delta + self.gamma * self.lam * (1 - dones[t]) * gae
            adv[t] = gae
        returns = (adv + values[:-1])[:, None]
        rollout = Rollout(
            obs=torch.as_tensor(np.stack(self.obs)),
            actions=torch.as_tensor(np.stack(self.actions)),
            log_probs=torch.as_tensor(np.asarray(self.log_probs, dtype=np.float32)),
            advantages=torch.as_tensor((adv - adv.mean()) / (adv.std() + 1e-8)),
            returns=torch.as_tensor(returns),
        )
        self.reset()
        return rollout
