import argparse
import logging

import numpy as np
import torch

from ppo.losses import actor_loss, critic_loss
from ppo.networks import Critic, GaussianActor
from ppo.rollout import RolloutStorage

log = logging.getLogger("ppo")


class ReachEnv:
    """Planar two-joint arm; the reward is minus the distance of the hand to a goal."""

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.q = self.rng.uniform(-1, 1, size=2)
        self.goal = self.rng.uniform(-1.5, 1.5, size=2)
        self.t = 0
        return self._obs()

    def _hand(self):
        return np.array([np.cos(self.q[0]) + np.cos(self.q.sum()), np.sin(self.q[0]) + np.sin(self.q.sum())])

    def _obs(self):
        return np.concatenate([np.cos(self.q), np.sin(self.q), self.goal]).astype(np.float32)

    def step(self, action):
        self.q = self.q + 0.1 * np.clip(action, -1, 1)
        self.t += 1
        return self._obs(), -float(np.linalg.norm(self._hand() - self.goal)), self.t >= 40


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--minibatch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)

    env = ReachEnv()
    actor, critic = GaussianActor(6, 2), Critic(6)
    pi_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
    vf_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    storage = RolloutStorage()
    obs = env.reset()
    for it in range(args.iterations):
        for _ in range(args.steps):
            with torch.no_grad():
                o = torch.as_tensor(obs)
                dist = actor(o)
                action = dist.sample()
                value = critic(o).item()
            next_obs, reward, done = env.step(action.numpy())
            storage.push(obs, action.numpy(), dist.log_prob(action).sum().item(), reward, value, float(done))
            obs = env.reset() if done else next_obs
        with torch.no_grad():
            rollout = storage.build(critic(torch.as_tensor(obs)).item())

        for _ in range(args.epochs):
            for idx in torch.randperm(len(rollout)).split(args.minibatch):
                mb = rollout.minibatch(idx)
                pi_loss, kl = actor_loss(actor, mb)
                pi_opt.zero_grad()
                pi_loss.backward()
                pi_opt.step()
                v_loss = critic_loss(critic, mb)
                vf_opt.zero_grad()
                v_loss.backward()
                vf_opt.step()
        log.info("iter %d pi %.4f v %.4f kl %.4f", it, pi_loss.item(), v_loss.item(), kl)


if __name__ == "__main__":
    main()
