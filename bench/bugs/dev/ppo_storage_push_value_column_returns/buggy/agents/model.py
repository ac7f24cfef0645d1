import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self, obs_dim: int = 8, n_actions: int = 4):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.pi = nn.Linear(64, n_actions)
        self.v = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.shared(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h)
