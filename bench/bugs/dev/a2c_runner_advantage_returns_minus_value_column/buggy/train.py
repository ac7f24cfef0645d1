import argparse
import logging

import numpy as np
import torch

from rl.policy import ActorCritic
from rl.runner import A2CRunner


class InventoryEnv:
    """Restock decisions for a shop with noisy daily demand (synthetic)."""

    def __init__(self, horizon: int = 30, seed: int = 0):
        self.horizon = horizon
        self.rng = np.random.default_rng(seed)

    def _obs(self):
        return np.array([self.stock / 10.0, self.day / self.horizon, self.last_demand / 10.0, 1.0], dtype=np.float32)

    def reset(self):
        self.stock, self.day, self.last_demand = 5.0, 0, 0.0
        return self._obs()

    def step(self, action: int):
        self.stock += 2.0 * action
        demand = float(self.rng.poisson(4))
        sold = min(demand, self.stock)
        self.stock -= sold
        self.day += 1
        self.last_demand = demand
        reward = sold - 0.1 * self.stock - 0.5 * action
        return self._obs(), reward, self.day >= self.horizon


def main():
    parser = argparse.ArgumentParser(description="A2C on a synthetic inventory task")
    parser.add_argument("--updates", type=int, default=40)
    parser.add_argument("--log-every", type=int, default=10)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)

    env = InventoryEnv()
    model = ActorCritic(obs_dim=4, n_actions=3)
    runner = A2CRunner(env, model)
    for update in range(1, args.updates + 1):
        stats = runner.update()
        if update % args.log_every == 0:
            logging.info("update %d policy %.3f value %.3f return %.2f", update, stats["policy"], stats["value"],
                         runner.recent_return())


if __name__ == "__main__":
    main()
