import torch


class PPOUpdate:
    def __init__(self, model, lr=3e-4, clip_eps=0.2, vf_coef=0.5, ent_coef=0.01, n_epochs=2, minibatch_size=16):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.clip_eps = clip_eps
        self.vf_coef = vf_coef
        self.ent_coef = ent_coef
        self.n_epochs = n_epochs
        self.minibatch_size = minibatch_size

    def update(self, batch):
        n = batch["obs"].size(0)
        stats = []
        for _ in range(self.n_epochs):
            for idx in torch.randperm(n).split(self.minibatch_size):
                obs, actions = batch["obs"][idx], batch["actions"][idx]
                dist = self.model.dist(obs)
                log_probs = dist.log_prob(actions)
                ratio = torch.exp(log_probs - batch["log_probs"][idx])
                adv = batch["advantages"][idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - self.clip_eps, 1 + self.clip_eps) * adv).mean()
                critic_values = self.model.critic(obs).squeeze(-1)
                value_loss = 0.5 * ((critic_values - batch["returns"][idx]) ** 2).mean()
                loss = policy_loss + self.vf_coef * value_loss - self.ent_coef * dist.entropy().mean()
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 0.5)
                self.optimizer.step()
                stats.append(value_loss.item())
        return sum(stats) / len(stats)
