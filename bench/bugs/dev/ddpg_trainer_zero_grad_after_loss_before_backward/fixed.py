import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH_SIZE = 16
LEARNING_RATE = 1e-3
GAMMA = 0.99
TAU = 0.001


class Critic(nn.Module):
    def __init__(self, state_dim, action_dim):
        super().__init__()
        self.fcs1 = nn.Linear(state_dim, 64)
        self.fcs2 = nn.Linear(64, 32)
        self.fca1 = nn.Linear(action_dim, 32)
        self.fc2 = nn.Linear(64, 32)
        self.fc3 = nn.Linear(32, 1)

    def forward(self, state, action):
        s = F.relu(self.fcs2(F.relu(self.fcs1(state))))
        a = F.relu(self.fca1(action))
        return self.fc3(F.relu(self.fc2(torch.cat((s, a), dim=1))))


class Actor(nn.Module):
    def __init__(self, state_dim, action_dim, action_lim):
        super().__init__()
        self.action_lim = action_lim
        self.net = nn.Sequential(nn.Linear(state_dim, 64), nn.ReLU(), nn.Linear(64, action_dim), nn.Tanh())

    def forward(self, state):
        return self.net(state) * self.action_lim


def soft_update(target, source, tau):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.data.copy_(target_param.data * (1.0 - tau) + param.data * tau)


def hard_update(target, source):
    target.load_state_dict(source.state_dict())


class Trainer:
    def __init__(self, state_dim, action_dim, action_lim, ram):
        self.ram = ram
        self.actor, self.target_actor = Actor(state_dim, action_dim, action_lim), Actor(state_dim, action_dim, action_lim)
        self.critic, self.target_critic = Critic(state_dim, action_dim), Critic(state_dim, action_dim)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), LEARNING_RATE)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), LEARNING_RATE)
        hard_update(self.target_actor, self.actor)
        hard_update(self.target_critic, self.critic)

    def optimize(self):
        s1, a1, r1, s2 = (torch.from_numpy(x) for x in self.ram.sample(BATCH_SIZE))

        a2 = self.target_actor(s2).detach()
        next_val = torch.squeeze(self.target_critic(s2, a2).detach())
        y_expected = r1 + GAMMA * next_val
        y_predicted = torch.squeeze(self.critic(s1, a1))
        loss_critic = F.smooth_l1_loss(y_predicted, y_expected)
        self.critic_optimizer.zero_grad()
        loss_critic.backward()
        self.critic_optimizer.step()

        pred_a1 = self.actor(s1)
        loss_actor = -1 * torch.sum(self.critic(s1, pred_a1))
        self.actor_optimizer.zero_grad()
        loss_actor.backward()
        self.actor_optimizer.step()

        soft_update(self.target_actor, self.actor, TAU)
        soft_update(self.target_critic, self.critic, TAU)
        return loss_critic.item(), loss_actor.item()


class MemoryBuffer:
    def __init__(self, state_dim, action_dim, size=128):
        rng = np.random.default_rng(0)
        self.s = rng.standard_normal((size, state_dim)).astype(np.float32)
        self.a = rng.uniform(-1, 1, (size, action_dim)).astype(np.float32)
        self.r = rng.standard_normal(size).astype(np.float32)
        self.s2 = rng.standard_normal((size, state_dim)).astype(np.float32)

    def sample(self, count):
        idx = np.random.randint(0, len(self.r), count)
        return self.s[idx], self.a[idx], self.r[idx], self.s2[idx]


if __name__ == "__main__":
    torch.manual_seed(0)
    np.random.seed(0)
    trainer = Trainer(state_dim=4, action_dim=2, action_lim=1.0, ram=MemoryBuffer(4, 2))
    for episode in range(4):
        print(episode, trainer.optimize())
