import torch
import torch.nn as nn
from torch.distributions import Normal


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64, action_scale=1.0):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, act_dim)
        self.log_sigma = nn.Linear(hidden, act_dim)
        self._action_scale = action_scale
        self.__eps = 1e-6

    def forward(self, obs):
        h = self.body(obs)
        mu, log_sigma = self.mu(h), self.log_sigma(h).clamp(-20, 2)
        dist = Normal(mu, log_sigma.exp())
        x = dist.rsample()
        y = torch.tanh(x)
        act = y * self._action_scale
        log_prob = dist.log_prob(x) - torch.log(self._action_scale * (1 - y.pow(2)) + self.__eps)
        log_prob = log_prob.sum(dim=-1, keepdim=True)
        return act, log_prob


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1))
