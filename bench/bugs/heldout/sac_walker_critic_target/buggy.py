import collections
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

STATE_DIM, ACTION_DIM = 8, 4


class ReplayBuffer:
    def __init__(self, capacity=1000):
        self.buffer = collections.deque(maxlen=capacity)

    def add(self, state, action, reward, next_state, done):
        self.buffer.append((state, action, reward, next_state, done))

    def sample(self, batch_size):
        batch = random.sample(self.buffer, batch_size)
        s, a, r, s2, d = zip(*batch)
        return (torch.stack(s), torch.stack(a), torch.tensor(r).unsqueeze(1),
                torch.stack(s2), torch.tensor(d, dtype=torch.float).unsqueeze(1))


class PolicyNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.fc = nn.Linear(STATE_DIM, hidden)
        self.mu = nn.Linear(hidden, ACTION_DIM)
        self.log_std = nn.Linear(hidden, ACTION_DIM)

    def forward(self, x):
        h = F.relu(self.fc(x))
        dist = Normal(self.mu(h), self.log_std(h).clamp(-5, 2).exp())
        normal_sample = dist.rsample()
        action = torch.tanh(normal_sample)
        log_prob = dist.log_prob(normal_sample) - torch.log(1 - action.pow(2) + 1e-7)
        return action, log_prob


class QValueNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STATE_DIM + ACTION_DIM, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], dim=1))


class SAC:
    def __init__(self, gamma=0.99, alpha=0.2, lr=3e-4):
        self.actor = PolicyNet()
        self.critic_1, self.critic_2 = QValueNet(), QValueNet()
        self.target_1, self.target_2 = QValueNet(), QValueNet()
        self.target_1.load_state_dict(self.critic_1.state_dict())
        self.target_2.load_state_dict(self.critic_2.state_dict())
        self.critic_opt = torch.optim.Adam(
            list(self.critic_1.parameters()) + list(self.critic_2.parameters()), lr=lr)
        self.gamma, self.alpha = gamma, alpha

    def calc_target(self, rewards, next_states, dones):
        next_actions, log_prob = self.actor(next_states)
        q1 = self.target_1(next_states, next_actions)
        q2 = self.target_2(next_states, next_actions)
        next_value = torch.min(q1, q2) - self.alpha * log_prob
        return rewards + self.gamma * next_value * (1 - dones)

    def update(self, states, actions, rewards, next_states, dones):
        td_target = self.calc_target(rewards, next_states, dones)
        critic_loss = (F.mse_loss(self.critic_1(states, actions), td_target.detach())
                       + F.mse_loss(self.critic_2(states, actions), td_target.detach()))
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()
        return critic_loss.item()


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    buffer = ReplayBuffer()
    for _ in range(64):
        buffer.add(torch.randn(STATE_DIM), torch.rand(ACTION_DIM) * 2 - 1, random.random(),
                   torch.randn(STATE_DIM), random.random() < 0.1)
    agent = SAC()
    for step in range(3):
        print(step, agent.update(*buffer.sample(16)))
