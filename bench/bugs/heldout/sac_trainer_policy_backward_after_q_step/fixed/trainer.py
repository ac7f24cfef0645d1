import copy

import torch
import torch.nn.functional as F


class SACTrainer:
    def __init__(self, policy, qf1, qf2, discount=0.99, soft_target_tau=5e-3, alpha=0.2, lr=3e-4):
        self.policy = policy
        self.qf1, self.qf2 = qf1, qf2
        self.target_qf1, self.target_qf2 = copy.deepcopy(qf1), copy.deepcopy(qf2)
        self.discount = discount
        self.tau = soft_target_tau
        self.alpha = alpha
        self.policy_optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
        self.qf1_optimizer = torch.optim.Adam(qf1.parameters(), lr=lr)
        self.qf2_optimizer = torch.optim.Adam(qf2.parameters(), lr=lr)
        self.eval_statistics = {}

    def train_from_torch(self, batch):
        obs, actions, rewards, next_obs, terminals = batch

        q1_pred = self.qf1(obs, actions)
        q2_pred = self.qf2(obs, actions)
        with torch.no_grad():
            new_next_actions, new_log_pi = self.policy(next_obs)
            target_q = torch.min(self.target_qf1(next_obs, new_next_actions),
                                 self.target_qf2(next_obs, new_next_actions)) - self.alpha * new_log_pi
            q_target = rewards + (1.0 - terminals) * self.discount * target_q
        qf1_loss = F.mse_loss(q1_pred, q_target)
        qf2_loss = F.mse_loss(q2_pred, q_target)

        self.qf1_optimizer.zero_grad()
        qf1_loss.backward()
        self.qf1_optimizer.step()

        self.qf2_optimizer.zero_grad()
        qf2_loss.backward()
        self.qf2_optimizer.step()

        new_obs_actions, log_pi = self.policy(obs)
        q_new_actions = torch.min(self.qf1(obs, new_obs_actions), self.qf2(obs, new_obs_actions))
        policy_loss = (self.alpha * log_pi - q_new_actions).mean()
        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()

        self._soft_update()
        self.eval_statistics = {"qf1": qf1_loss.item(), "qf2": qf2_loss.item(), "policy": policy_loss.item()}

    def _soft_update(self):
        with torch.no_grad():
            for net, target in ((self.qf1, self.target_qf1), (self.qf2, self.target_qf2)):
                for p, tp in zip(net.parameters(), target.parameters()):
                    tp.mul_(1 - self.tau).add_(self.tau * p)
