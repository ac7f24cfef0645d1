import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32, high_action=1.0):
        super().__init__()
        self.high_action = high_action
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, act_dim))

    def forward(self, obs):
        return self.high_action * torch.tanh(self.net(obs))


class Critic(nn.Module):
    """Centralised critic: sees every agent's observation and action."""

    def __init__(self, obs_dims, act_dims, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(sum(obs_dims) + sum(act_dims), hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs_list, act_list):
        return self.net(torch.cat(obs_list + act_list, dim=1))
