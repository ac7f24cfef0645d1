import torch.nn as nn


class PolicyValueNet(nn.Module):
    def __init__(self, state_dim=24, n_actions=12, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(state_dim, hidden), nn.ELU(), nn.Linear(hidden, hidden), nn.ELU())
        self.policy = nn.Linear(hidden, n_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, states):
        h = self.body(states)
        return self.policy(h), self.value(h).squeeze(-1)
