import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.mu = nn.Linear(hidden, act_dim)
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def forward(self, obs):
        h = torch.tanh(self.fc1(obs))
        return self.mu(h), self.log_std.exp().expand_as(self.mu(h))


class Critic(nn.Module):
    def __init__(self, obs_dim, hidden=32):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, 1)

    def forward(self, obs):
        x = torch.tanh(self.fc1(obs))
        x = torch.tanh(self.fc2(x))
        return self.fc3(x).squeeze(-1)


def get_returns(rewards, masks, gamma=0.99):
    returns = torch.zeros_like(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running * masks[t]
        returns[t] = running
    return returns


def train_actor_critic(actor, critic, memory, actor_optim, critic_optim):
    states, actions, rewards, masks = memory
    returns = get_returns(rewards, masks)
    values = critic(states)
    critic_loss = F.mse_loss(values, returns)
    critic_optim.zero_grad()
    critic_loss.backward()
    critic_optim.step()

    mu, std = actor(states)
    log_prob = torch.distributions.Normal(mu, std).log_prob(actions).sum(-1)
    advantages = returns - values.detach()
    actor_loss = -(log_prob * advantages).mean()
    actor_optim.zero_grad()
    actor_loss.backward()
    actor_optim.step()
    return actor_loss.item(), critic_loss.item()


def collect(obs_dim, act_dim, steps=16):
    states = torch.randn(steps, obs_dim)
    actions = torch.randn(steps, act_dim)
    rewards = torch.randn(steps)
    masks = (torch.rand(steps) > 0.1).float()
    return states, actions, rewards, masks


if __name__ == "__main__":
    actor, critic = Actor(6, 2), Critic(6)
    actor_optim = torch.optim.Adam(actor.parameters(), lr=3e-4)
    critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3, weight_decay=1e-3)
    for episode in range(3):
        print(episode, train_actor_critic(actor, critic, collect(6, 2), actor_optim, critic_optim))
