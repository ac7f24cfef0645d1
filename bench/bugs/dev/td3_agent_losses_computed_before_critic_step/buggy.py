import copy
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TD3Config:
    obs_dim: int = 8
    act_dim: int = 2
    hidden: int = 64
    gamma: float = 0.99
    tau: float = 0.005
    policy_noise: float = 0.2
    noise_clip: float = 0.5
    lr: float = 3e-4


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        return self.q(torch.cat([obs, act], dim=-1)).squeeze(-1)


class TD3Agent:
    def __init__(self, cfg: TD3Config):
        self.cfg = cfg
        self.actor = Actor(cfg.obs_dim, cfg.act_dim, cfg.hidden)
        self.critic = Critic(cfg.obs_dim, cfg.act_dim, cfg.hidden)
        self.actor_target = copy.deepcopy(self.actor)
        self.critic_target = copy.deepcopy(self.critic)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=cfg.lr)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=cfg.lr)

    def losses(self, obs, act, rew, next_obs, done):
        with torch.no_grad():
            noise = (torch.randn_like(act) * self.cfg.policy_noise).clamp(-self.cfg.noise_clip, self.cfg.noise_clip)
            next_act = (self.actor_target(next_obs) + noise).clamp(-1, 1)
            target_q = rew + self.cfg.gamma * (1 - done) * self.critic_target(next_obs, next_act)
        loss_qvalue = F.mse_loss(self.critic(obs, act), target_q)
        loss_actor = -self.critic(obs, self.actor(obs)).mean()
        return loss_qvalue, loss_actor

    def update(self, batch):
        loss_qvalue, loss_actor = self.losses(*batch)
        self.critic_opt.zero_grad()
        loss_qvalue.backward()
        self.critic_opt.step()
        self.actor_opt.zero_grad()
        loss_actor.backward()
        self.actor_opt.step()
        self.soft_update()
        return loss_qvalue.item(), loss_actor.item()

    @torch.no_grad()
    def soft_update(self):
        for net, target in ((self.actor, self.actor_target), (self.critic, self.critic_target)):
            for p, tp in zip(net.parameters(), target.parameters()):
                tp.lerp_(p, self.cfg.tau)


def random_batch(cfg, n=32):
    return (torch.randn(n, cfg.obs_dim), torch.rand(n, cfg.act_dim) * 2 - 1, torch.randn(n),
            torch.randn(n, cfg.obs_dim), (torch.rand(n) < 0.05).float())


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = TD3Config()
    agent = TD3Agent(cfg)
    for it in range(5):
        q_loss, pi_loss = agent.update(random_batch(cfg))
    print(f"critic {q_loss:.3f} actor {pi_loss:.3f}")
