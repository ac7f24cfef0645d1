import torch
import torch.nn as nn


class TransitionModel(nn.Module):
    """Deterministic latent dynamics: next state from (state, action)."""

    def __init__(self, state_dim=16, action_dim=2, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim + action_dim, hidden), nn.ELU(), nn.Linear(hidden, state_dim))

    def forward(self, state, action):
        return state + self.net(torch.cat([state, action], dim=-1))


class ValueModel(nn.Module):
    def __init__(self, state_dim=16, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(state_dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, 1)
        self.act = nn.ELU()

    def forward(self, state):
        return self.fc3(self.act(self.fc2(self.act(self.fc1(state)))))


class ActionModel(nn.Module):
    def __init__(self, state_dim=16, action_dim=2, hidden=64, init_std=5.0):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(state_dim, hidden), nn.ELU(), nn.Linear(hidden, hidden), nn.ELU())
        self.mean = nn.Linear(hidden, action_dim)
        self.init_std = init_std

    def forward(self, state):
        h = self.body(state)
        mean = 5.0 * torch.tanh(self.mean(h) / 5.0)
        return torch.tanh(mean + 0.1 * torch.randn_like(mean))
