import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class RecurrentQNetwork(nn.Module):
    """Per-vehicle Q-network whose hidden state carries the route so far (one step per intersection)."""

    def __init__(self, obs_dim=6, hidden=16, n_actions=3):
        super().__init__()
        self.w_in = nn.Linear(obs_dim, hidden)
        self.w_h = nn.Linear(hidden, hidden, bias=False)
        self.q = nn.Linear(hidden, n_actions)

    def step(self, obs, h, congestion):
        h = torch.tanh(self.w_in(obs) + self.w_h(h)).clone()
        h[:, 0] += congestion
        return self.q(h), h


def episode(net, n_steps=4, batch=8, obs_dim=6, hidden=16):
    h = torch.zeros(batch, hidden)
    q_values = []
    for _ in range(n_steps):
        obs = torch.randn(batch, obs_dim)
        q, h = net.step(obs, h, congestion=random.random())
        q_values.append(q)
    return torch.stack(q_values, dim=1)


def main():
    torch.manual_seed(0)
    random.seed(0)
    net = RecurrentQNetwork()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=1e-3)
    for it in range(2):
        q = episode(net)
        targets = torch.randn_like(q)
        loss = F.smooth_l1_loss(q, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, loss.item())


if __name__ == "__main__":
    main()
