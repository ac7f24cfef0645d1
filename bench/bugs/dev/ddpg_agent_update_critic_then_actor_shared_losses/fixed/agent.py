import copy

import torch
import torch.nn.functional as F

from networks import Actor, Critic


class DDPGAgent:
    def __init__(self, obs_dim, act_dim, gamma=0.99, tau=0.005, actor_lr=1e-4, critic_lr=1e-3):
        self.actor = Actor(obs_dim, act_dim)
        self.critic = Critic(obs_dim, act_dim)
        self.actor_target = copy.deepcopy(self.actor)
        self.critic_target = copy.deepcopy(self.critic)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=actor_lr)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=critic_lr)
        self.gamma, self.tau = gamma, tau

    @torch.no_grad()
    def act(self, obs, noise=0.1):
        a = self.actor(torch.as_tensor(obs).unsqueeze(0)).squeeze(0)
        return (a + noise * torch.randn_like(a)).clamp(-2.0, 2.0).numpy()

    def compute_losses(self, batch):
        with torch.no_grad():
            next_q = self.critic_target(batch["next_obs"], self.actor_target(batch["next_obs"]))
            target = batch["rew"] + self.gamma * (1 - batch["done"]) * next_q
        critic_loss = F.mse_loss(self.critic(batch["obs"], batch["act"]), target)
        actor_loss = -self.critic(batch["obs"], self.actor(batch["obs"])).mean()
        return critic_loss, actor_loss

    def update_critic(self, loss):
        self.critic_opt.zero_grad()
        loss.backward()
        self.critic_opt.step()

    def update_actor(self, loss):
        self.actor_opt.zero_grad()
        loss.backward()
        self.actor_opt.step()

    @torch.no_grad()
    def soft_update(self):
        for net, target in ((self.actor, self.actor_target), (self.critic, self.critic_target)):
            for p, tp in zip(net.parameters(), target.parameters()):
                tp.mul_(1 - self.tau).add_(self.tau * p)

    def learn(self, batch):
        critic_loss, actor_loss = self.compute_losses(batch)
        self.update_actor(actor_loss)
        self.update_critic(critic_loss)
        self.soft_update()
        return critic_loss.item(), actor_loss.item()
