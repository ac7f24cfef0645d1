import copy

import torch
import torch.nn.functional as F


class SACPolicy:
    def __init__(self, actor, critic1, critic2, tau=0.005, gamma=0.99, alpha=0.2, lr=3e-4):
        self.actor, self.critic1, self.critic2 = actor, critic1, critic2
        self.critic1_old, self.critic2_old = copy.deepcopy(critic1), copy.deepcopy(critic2)
        self.actor_optim = torch.optim.Adam(actor.parameters(), lr=lr)
        self.critic1_optim = torch.optim.Adam(critic1.parameters(), lr=lr)
        self.critic2_optim = torch.optim.Adam(critic2.parameters(), lr=lr)
        self._tau, self._gamma, self._alpha = tau, gamma, alpha

    def sync_weight(self):
        for old, new in ((self.critic1_old, self.critic1), (self.critic2_old, self.critic2)):
            for o, n in zip(old.parameters(), new.parameters()):
                o.data.copy_(o.data * (1 - self._tau) + n.data * self._tau)

    def learn(self, batch):
        obs, act, rew, obs_next, done = batch
        with torch.no_grad():
            a_, log_prob_ = self.actor(obs_next)
            target_q = torch.min(self.critic1_old(obs_next, a_), self.critic2_old(obs_next, a_)) - self._alpha * log_prob_
            target_q = rew + self._gamma * (1.0 - done) * target_q

        current_q1 = self.critic1(obs, act)
        critic1_loss = F.mse_loss(current_q1, target_q)
        self.critic1_optim.zero_grad()
        critic1_loss.backward()
        self.critic1_optim.step()

        current_q2 = self.critic2(obs, act)
        critic2_loss = F.mse_loss(current_q2, target_q)
        self.critic2_optim.zero_grad()
        critic2_loss.backward()
        self.critic2_optim.step()

        a, log_prob = self.actor(obs)
        current_q1a = self.critic1(obs, a)
        current_q2a = self.critic2(obs, a)
        actor_loss = (self._alpha * log_prob - torch.min(current_q1a, current_q2a)).mean()
        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()
        self.sync_weight()
        return {"loss/actor": actor_loss.item(), "loss/critic1": critic1_loss.item(), "loss/critic2": critic2_loss.item()}
