"""Soft actor-critic update on a replay buffer of a toy 1-d reach task; all losses are computed before
any network is stepped, so the order of the optimizer steps does not matter."""
import copy
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.q2 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        xu = torch.cat([obs, act], 1)
        return self.q1(xu), self.q2(xu)


class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.mean = nn.Linear(hidden, act_dim)
        self.log_std = nn.Linear(hidden, act_dim)

    def sample(self, obs):
        h = self.body(obs)
        std = self.log_std(h).clamp(-5, 2).exp()
        normal = torch.distributions.Normal(self.mean(h), std)
        x = normal.rsample()
        action = torch.tanh(x)
        log_prob = (normal.log_prob(x) - torch.log(1 - action.pow(2) + 1e-6)).sum(1, keepdim=True)
        return action, log_prob


class SAC:
    def __init__(self, obs_dim, act_dim, gamma=0.99, tau=0.01, alpha=0.2, lr=3e-4):
        self.gamma, self.tau, self.alpha = gamma, tau, alpha
        self.critic = QNetwork(obs_dim, act_dim)
        self.critic_target = copy.deepcopy(self.critic)
        self.policy = GaussianPolicy(obs_dim, act_dim)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.policy_optim = torch.optim.Adam(self.policy.parameters(), lr=lr)

    def update_parameters(self, batch):
        obs, act, rew, next_obs, done = batch
        with torch.no_grad():
            next_act, next_logp = self.policy.sample(next_obs)
            q1_t, q2_t = self.critic_target(next_obs, next_act)
            target = rew + (1 - done) * self.gamma * (torch.min(q1_t, q2_t) - self.alpha * next_logp)
        q1, q2 = self.critic(obs, act)
        qf_loss = F.mse_loss(q1, target) + F.mse_loss(q2, target)

        pi, log_pi = self.policy.sample(obs)
        q1_pi, q2_pi = self.critic(obs, pi)
        policy_loss = (self.alpha * log_pi - torch.min(q1_pi, q2_pi)).mean()

        self.critic_optim.zero_grad()
        self.policy_optim.zero_grad()
        qf_loss.backward()
        policy_loss.backward()
        self.critic_optim.step()
        self.policy_optim.step()

        with torch.no_grad():
            for tp, p in zip(self.critic_target.parameters(), self.critic.parameters()):
                tp.mul_(1 - self.tau).add_(self.tau * p)
        return qf_loss.item(), policy_loss.item()


def sample_batch(buffer, n):
    items = random.sample(buffer, n)
    return [torch.tensor([it[i] for it in items], dtype=torch.float32).reshape(n, -1) for i in range(5)]


def main():
    random.seed(0)
    torch.manual_seed(0)
    buffer = deque(maxlen=1000)
    pos = 0.0
    for _ in range(200):
        a = random.uniform(-1, 1)
        nxt = max(-2.0, min(2.0, pos + 0.3 * a))
        buffer.append(([pos], [a], [-abs(nxt - 1.0)], [nxt], [0.0]))
        pos = nxt
    agent = SAC(1, 1)
    for updates in range(20):
        qf, pl = agent.update_parameters(sample_batch(buffer, 32))
    print(f"critic {qf:.3f} policy {pl:.3f}")


if __name__ == "__main__":
    main()
