import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * act_dim))

    def forward(self, obs):
        mu, log_std = self.net(obs).chunk(2, dim=-1)
        std = log_std.clamp(-5, 2).exp()
        eps = torch.randn_like(mu)
        action = torch.tanh(mu + std * eps)
        log_prob = (-0.5 * eps.pow(2) - std.log() - 0.5 * math.log(2 * math.pi)).sum(-1, keepdim=True)
        return action, log_prob - torch.log(1 - action.pow(2) + 1e-6).sum(-1, keepdim=True)


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        return self.q(torch.cat([obs, act], -1))


class SACAgent:
    def __init__(self, obs_dim=5, act_dim=2, lr=3e-4, gamma=0.99):
        self.actor, self.critic = Actor(obs_dim, act_dim), Critic(obs_dim, act_dim)
        self.critic_target = copy.deepcopy(self.critic)
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.target_entropy = -float(act_dim)
        self.gamma = gamma
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.alpha_opt = torch.optim.Adam([self.log_alpha], lr=lr)

    def update(self, obs, act, rew, next_obs, done):
        alpha = self.log_alpha.exp().detach()
        with torch.no_grad():
            next_act, next_logp = self.actor(next_obs)
            target = rew + self.gamma * (1 - done) * (self.critic_target(next_obs, next_act) - alpha * next_logp)
        critic_loss = F.mse_loss(self.critic(obs, act), target)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        pi, logp = self.actor(obs)
        actor_loss = (alpha * logp - self.critic(obs, pi)).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

        alpha_loss = -(self.log_alpha * (logp + self.target_entropy).detach()).mean()
        self.alpha_opt.zero_grad()
        alpha_loss.backward()
        self.alpha_opt.step()
        return critic_loss.item(), actor_loss.item(), alpha_loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = SACAgent()
    for it in range(3):
        batch = (torch.randn(16, 5), torch.rand(16, 2) * 2 - 1, torch.randn(16, 1), torch.randn(16, 5), torch.zeros(16, 1))
        print(it, agent.update(*batch))
