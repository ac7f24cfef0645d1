import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int, hidden: int = 64):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, obs, mask):
        logits = self.actor(obs).masked_fill(~mask, float("-inf"))
        return Categorical(logits=logits), self.critic(obs)

    def act(self, obs, mask):
        dist, _ = self(obs, mask)
        action = dist.sample()
        return action, dist.log_prob(action)

    def evaluate(self, obs, mask, actions):
        dist, values = self(obs, mask)
        return dist.log_prob(actions), values, dist.entropy()
