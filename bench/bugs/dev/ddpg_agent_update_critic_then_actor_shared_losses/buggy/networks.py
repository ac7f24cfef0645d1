import torch
import torch.nn as nn


def mlp(inp, out, hidden=64):
    return nn.Sequential(nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, out))


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, max_action=2.0):
        super().__init__()
        self.net = mlp(obs_dim, act_dim)
        self.max_action = max_action

    def forward(self, obs):
        return self.max_action * torch.tanh(self.net(obs))


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.q = mlp(obs_dim + act_dim, 1)

    def forward(self, obs, act):
        return self.q(torch.cat([obs, act], dim=-1))
