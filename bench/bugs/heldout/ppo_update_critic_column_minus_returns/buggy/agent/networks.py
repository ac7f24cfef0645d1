import torch
import torch.nn as nn
from torch.distributions import Categorical


def mlp(in_dim, hidden, out_dim):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                         nn.Linear(hidden, out_dim))


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.actor = mlp(obs_dim, hidden, n_actions)
        self.critic = mlp(obs_dim, hidden, 1)

    def dist(self, obs):
        return Categorical(logits=self.actor(obs))

    @torch.no_grad()
    def act(self, obs):
        d = self.dist(obs)
        action = d.sample()
        return action, d.log_prob(action), self.critic(obs).squeeze(-1)
