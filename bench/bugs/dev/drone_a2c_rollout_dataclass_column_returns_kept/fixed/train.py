import argparse
import logging

import numpy as np
import torch

from agent.a2c import A2CAgent
from agent.buffer import RolloutBuffer
from agent.nets import PolicyValueNet
from config import A2CConfig


class HoverEnv:
    """1-d drone hovering at a target altitude: thrust down / idle / up."""

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.alt, self.vel, self.t = self.rng.uniform(0, 2), 0.0, 0
        return self._obs()

    def _obs(self):
        return torch.tensor([self.alt - 1.0, self.vel, self.t / 50.0, 1.0], dtype=torch.float32)

    def step(self, action: int):
        self.vel += 0.1 * (action - 1) + 0.02 * self.rng.standard_normal()
        self.alt += 0.1 * self.vel
        self.t += 1
        reward = -abs(self.alt - 1.0) - 0.01 * abs(action - 1)
        return self._obs(), reward, self.t >= 50 or abs(self.alt - 1.0) > 3.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    cfg = A2CConfig()
    if args.updates:
        cfg.updates = args.updates
    torch.manual_seed(cfg.seed)

    env = HoverEnv(cfg.seed)
    agent = A2CAgent(PolicyValueNet(cfg.obs_dim, cfg.n_actions, cfg.hidden), lr=cfg.lr)
    buffer = RolloutBuffer()
    obs = env.reset()
    for update in range(cfg.updates):
        for _ in range(cfg.n_steps):
            action, log_prob, value = agent.act(obs)
            next_obs, reward, done = env.step(action.item())
            buffer.add(obs, action, log_prob, value, reward, done)
            obs = env.reset() if done else next_obs
        _, _, last_value = agent.act(obs)
        stats = agent.update(buffer.finish(last_value.view(1, 1), cfg.gamma, cfg.lam))
        if update % 5 == 0:
            logging.info("update %d %s", update, {k: round(v, 4) for k, v in stats.items()})


if __name__ == "__main__":
    main()
