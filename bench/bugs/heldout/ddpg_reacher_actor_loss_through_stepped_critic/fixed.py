"""DDPG on a toy continuous-control task (random transitions stand in for the Unity environment)."""
import copy
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

STATE, ACTION = 8, 2
GAMMA, TAU = 0.99, 1e-2


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STATE, 64), nn.ReLU(), nn.Linear(64, ACTION), nn.Tanh())

    def forward(self, s):
        return self.net(s)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fcs = nn.Linear(STATE, 64)
        self.fca = nn.Linear(64 + ACTION, 64)
        self.q = nn.Linear(64, 1)

    def forward(self, s, a):
        h = F.relu(self.fcs(s))
        return self.q(F.relu(self.fca(torch.cat([h, a], dim=1))))


class ReplayBuffer:
    def __init__(self, size=1000):
        self.memory = deque(maxlen=size)

    def add(self, *transition):
        self.memory.append(transition)

    def sample(self, n):
        batch = random.sample(self.memory, n)
        s, a, r, s2, d = map(np.array, zip(*batch))
        as_t = lambda x: torch.as_tensor(x, dtype=torch.float32)
        return as_t(s), as_t(a), as_t(r).unsqueeze(1), as_t(s2), as_t(d).unsqueeze(1)

    def __len__(self):
        return len(self.memory)


class Agent:
    def __init__(self):
        self.actor, self.critic = Actor(), Critic()
        self.actor_target, self.critic_target = copy.deepcopy(self.actor), copy.deepcopy(self.critic)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.memory = ReplayBuffer()

    def act(self, state, noise=0.1):
        with torch.no_grad():
            a = self.actor(torch.as_tensor(state, dtype=torch.float32).unsqueeze(0))[0].numpy()
        return np.clip(a + noise * np.random.randn(ACTION), -1, 1)

    def learn(self, batch_size=16):
        s, a, r, s2, d = self.memory.sample(batch_size)
        with torch.no_grad():
            q_target = r + GAMMA * (1 - d) * self.critic_target(s2, self.actor_target(s2))
        critic_loss = F.mse_loss(self.critic(s, a), q_target)

        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        actor_loss = -self.critic(s, self.actor(s)).mean()

        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()
        self.soft_update()
        return critic_loss.item(), actor_loss.item()

    def soft_update(self):
        for tgt, src in ((self.actor_target, self.actor), (self.critic_target, self.critic)):
            for tp, p in zip(tgt.parameters(), src.parameters()):
                tp.data.mul_(1 - TAU).add_(TAU * p.data)


def main(episodes=2, steps=20):
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    agent = Agent()
    for ep in range(episodes):
        state = np.random.randn(STATE)
        for t in range(steps):
            action = agent.act(state)
            nxt = np.random.randn(STATE)
            reward = -float(np.sum(action ** 2))
            agent.memory.add(state, action, reward, nxt, float(t == steps - 1))
            state = nxt
            if len(agent.memory) >= 16:
                agent.learn()
        print(f"episode {ep} done")


if __name__ == "__main__":
    main()
