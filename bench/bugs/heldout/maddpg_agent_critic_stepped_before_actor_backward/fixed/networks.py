import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class Critic(nn.Module):
    """Centralised critic: sees every agent's observation and action."""

    def __init__(self, total_obs, total_act, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(total_obs + total_act, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.q_out = nn.Linear(hidden, 1)

    def forward(self, obs, act):
        x = torch.relu(self.fc1(torch.cat([obs, act], dim=-1)))
        return self.q_out(torch.relu(self.fc2(x)))
