import torch
import torch.nn as nn
from torch.distributions import Normal


def mlp(sizes, act=nn.Tanh):
    layers = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), act()]
    return nn.Sequential(*layers[:-1])


class GaussianActor(nn.Module):
    def __init__(self, obs_dim: int, act_dim: int, hidden: int = 64):
        super().__init__()
        self.mu = mlp([obs_dim, hidden, hidden, act_dim])
        self.log_std = nn.Parameter(torch.full((act_dim,), -0.5))

    def forward(self, obs):
        return Normal(self.mu(obs), self.log_std.exp())


class Critic(nn.Module):
    def __init__(self, obs_dim: int, hidden: int = 64):
        super().__init__()
        self.v = mlp([obs_dim, hidden, hidden, 1])

    def forward(self, obs):
        return self.v(obs).squeeze(-1)
