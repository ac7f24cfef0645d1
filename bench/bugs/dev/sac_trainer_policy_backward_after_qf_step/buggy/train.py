import copy

import torch
import torch.nn.functional as F

from networks import FlattenMlp, TanhGaussianPolicy

variant = {"obs_dim": 6, "action_dim": 2, "batch_size": 32, "num_train_steps": 3,
           "discount": 0.99, "soft_target_tau": 5e-3, "policy_lr": 3e-4, "qf_lr": 3e-4, "alpha": 0.2}


class SACTrainer:
    def __init__(self, policy, qf, variant):
        self.policy, self.qf = policy, qf
        self.target_qf = copy.deepcopy(qf)
        self.discount, self.tau, self.alpha = variant["discount"], variant["soft_target_tau"], variant["alpha"]
        self.policy_optimizer = torch.optim.Adam(policy.parameters(), lr=variant["policy_lr"])
        self.qf_optimizer = torch.optim.Adam(qf.parameters(), lr=variant["qf_lr"])

    def train_from_torch(self, batch):
        obs, actions, rewards = batch["observations"], batch["actions"], batch["rewards"]
        next_obs, terminals = batch["next_observations"], batch["terminals"]

        new_obs_actions, log_pi = self.policy(obs)
        q_new_actions = self.qf(obs, new_obs_actions)
        policy_loss = (self.alpha * log_pi - q_new_actions).mean()

        q_pred = self.qf(obs, actions)
        with torch.no_grad():
            new_next_actions, new_log_pi = self.policy(next_obs)
            target_q_values = self.target_qf(next_obs, new_next_actions) - self.alpha * new_log_pi
            q_target = rewards + (1.0 - terminals) * self.discount * target_q_values
        qf_loss = F.mse_loss(q_pred, q_target)

        self.qf_optimizer.zero_grad()
        qf_loss.backward()
        self.qf_optimizer.step()

        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()

        self.soft_update()
        return {"QF Loss": qf_loss.item(), "Policy Loss": policy_loss.item()}

    @torch.no_grad()
    def soft_update(self):
        for target, source in zip(self.target_qf.parameters(), self.qf.parameters()):
            target.mul_(1 - self.tau).add_(source, alpha=self.tau)


def random_batch(variant):
    n = variant["batch_size"]
    return {
        "observations": torch.randn(n, variant["obs_dim"]),
        "actions": torch.rand(n, variant["action_dim"]) * 2 - 1,
        "rewards": torch.randn(n, 1),
        "next_observations": torch.randn(n, variant["obs_dim"]),
        "terminals": (torch.rand(n, 1) < 0.05).float(),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    policy = TanhGaussianPolicy(variant["obs_dim"], variant["action_dim"])
    qf = FlattenMlp(variant["obs_dim"] + variant["action_dim"], 1)
    trainer = SACTrainer(policy, qf, variant)
    for step in range(variant["num_train_steps"]):
        print(step, trainer.train_from_torch(random_batch(variant)))
