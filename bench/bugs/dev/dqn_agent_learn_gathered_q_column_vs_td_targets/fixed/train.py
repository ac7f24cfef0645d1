import argparse
import logging
import random

import numpy as np
import torch

from agent import DQNAgent
from config import AgentConfig


class DriftEnv:
    """A tiny synthetic control task: push a 6-d state towards the origin."""

    def __init__(self, obs_dim: int, n_actions: int, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.obs_dim = obs_dim
        self.n_actions = n_actions
        self.moves = self.rng.normal(size=(n_actions, obs_dim)).astype(np.float32) * 0.3

    def reset(self):
        self.t = 0
        self.state = self.rng.normal(size=self.obs_dim).astype(np.float32)
        return self.state.copy()

    def step(self, action: int):
        self.t += 1
        self.state = self.state + self.moves[action] + self.rng.normal(scale=0.05, size=self.obs_dim).astype(np.float32)
        reward = -float(np.linalg.norm(self.state))
        done = self.t >= 40
        return self.state.copy(), reward, done


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    random.seed(args.seed)
    torch.manual_seed(args.seed)

    cfg = AgentConfig()
    env = DriftEnv(cfg.obs_dim, cfg.n_actions, seed=args.seed)
    agent = DQNAgent(cfg)

    for episode in range(args.episodes):
        obs = env.reset()
        done, ret, losses = False, 0.0, []
        while not done:
            action = agent.act(obs)
            next_obs, reward, done = env.step(action)
            agent.buffer.push(obs, action, reward, next_obs, done)
            obs = next_obs
            ret += reward
            loss = agent.learn()
            if loss is not None:
                losses.append(loss)
        mean_loss = sum(losses) / len(losses) if losses else float("nan")
        logging.info("episode %d return %.2f loss %.4f eps %.3f", episode, ret, mean_loss, agent.epsilon())


if __name__ == "__main__":
    main()
