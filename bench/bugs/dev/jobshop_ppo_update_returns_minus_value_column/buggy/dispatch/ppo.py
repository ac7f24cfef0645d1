import copy
import logging

import torch
import torch.nn.functional as F

from dispatch.networks import ActorCritic

log = logging.getLogger(__name__)


class Memory:
    def __init__(self):
        self.clear()

    def clear(self):
        self.states, self.masks, self.actions, self.logprobs = [], [], [], []
        self.rewards, self.dones = [], []


class PPO:
    def __init__(self, policy: ActorCritic, cfg):
        self.cfg = cfg
        self.policy = policy
        self.policy_old = copy.deepcopy(policy)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=cfg.lr)

    def discounted_returns(self, rewards, dones):
        returns, running = [], 0.0
        for reward, done in zip(reversed(rewards), reversed(dones)):
            if done:
                running = 0.0
            running = reward + self.cfg.gamma * running
            returns.insert(0, running)
        returns = torch.tensor(returns, dtype=torch.float32)
        return (returns - returns.mean()) / (returns.std() + 1e-5)

    def update(self, memory: Memory):
        returns = self.discounted_returns(memory.rewards, memory.dones)
        old_states = torch.stack(memory.states)
        old_masks = torch.stack(memory.masks)
        old_actions = torch.stack(memory.actions)
        old_logprobs = torch.stack(memory.logprobs).detach()

        for _ in range(self.cfg.k_epochs):
            logprobs, vals, entropy = self.policy.evaluate(old_states, old_masks, old_actions)
            ratios = torch.exp(logprobs - old_logprobs)
            advantages = returns - vals.detach()
            surr1 = ratios * advantages
            surr2 = torch.clamp(ratios, 1 - self.cfg.eps_clip, 1 + self.cfg.eps_clip) * advantages
            v_loss = F.mse_loss(vals.squeeze(-1), returns)
            p_loss = -torch.min(surr1, surr2).mean()
            ent_loss = -entropy.mean()
            loss = self.cfg.vloss_coef * v_loss + self.cfg.ploss_coef * p_loss + self.cfg.entloss_coef * ent_loss
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

        self.policy_old.load_state_dict(self.policy.state_dict())
        return loss.item(), v_loss.item()
