"""A2C learn step written like a policy library's: critic values are (B, 1), returns come from a numpy
batch as (B,) and are lifted to a column before they meet the values."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Batch(dict):
    __getattr__ = dict.__getitem__


class A2CPolicy:
    def __init__(self, actor, critic, optim, vf_coef=0.5, ent_coef=0.01, max_grad_norm=0.5):
        self.actor, self.critic, self.optim = actor, critic, optim
        self.vf_coef, self.ent_coef, self.max_grad_norm = vf_coef, ent_coef, max_grad_norm

    def learn(self, batch: Batch, batch_size: int, repeat: int):
        losses = []
        for _ in range(repeat):
            for start in range(0, len(batch.obs), batch_size):
                obs = torch.as_tensor(batch.obs[start:start + batch_size], dtype=torch.float32)
                act = torch.as_tensor(batch.act[start:start + batch_size])
                r = torch.as_tensor(batch.returns[start:start + batch_size], dtype=torch.float32)[:, None]
                dist = torch.distributions.Categorical(logits=self.actor(obs))
                v = self.critic(obs)
                a_loss = -(dist.log_prob(act)[:, None] * (r - v).detach()).mean()
                vf_loss = F.mse_loss(r, v)
                ent_loss = dist.entropy().mean()
                loss = a_loss + self.vf_coef * vf_loss - self.ent_coef * ent_loss
                self.optim.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(list(self.actor.parameters()) + list(self.critic.parameters()), self.max_grad_norm)
                self.optim.step()
                losses.append(loss.item())
        return {"loss": float(np.mean(losses))}


def main():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    actor = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
    critic = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
    optim = torch.optim.Adam(list(actor.parameters()) + list(critic.parameters()), lr=1e-3)
    policy = A2CPolicy(actor, critic, optim)
    obs = rng.normal(size=(64, 4)).astype(np.float32)
    batch = Batch(obs=obs, act=rng.integers(0, 2, 64), returns=obs[:, 0] + rng.normal(scale=0.1, size=64))
    print(policy.learn(batch, batch_size=16, repeat=2))


if __name__ == "__main__":
    main()
