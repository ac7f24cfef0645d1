from dataclasses import dataclass

import torch


@dataclass
class Minibatch:
    obs: torch.Tensor
    actions: torch.Tensor
    old_log_probs: torch.Tensor
    returns: torch.Tensor
    advantages: torch.Tensor


class RolloutStorage:
    def __init__(self):
        self.obs = []
        self.actions = []
        self.log_probs = []
        self.rewards = []
        self.values = []

    def push(self, obs, action, log_prob, reward, value):
        self.obs.append(obs)
        self.actions.append(action)
        self.log_probs.append(log_prob)
        self.rewards.append(reward)
        self.values.append(value)

    def reset(self):
        self.obs = []
        self.actions = []
        self.log_probs = []
        self.rewards = []
        self.values = []

    def finalize(self, gamma=0.99):
        values = torch.cat(self.values)
        returns = []
        running = 0.0
        for r in reversed(self.rewards):
            running = r + gamma * running
            returns.append(running)
        returns = torch.tensor(returns[::-1], dtype=torch.float32)
        return Minibatch(torch.stack(self.obs), torch.stack(self.actions), torch.stack(self.log_probs),
                         returns, returns - values)
