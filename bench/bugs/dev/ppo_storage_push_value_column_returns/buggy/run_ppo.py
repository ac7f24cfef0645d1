import random

import torch

from agents.buffer import RolloutStorage
from agents.losses import policy_loss, value_loss
from agents.model import ActorCritic


class PPO:
    def __init__(self, horizon: int = 64, epochs: int = 4):
        self.model = ActorCritic()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=2.5e-4)
        self.storage = RolloutStorage()
        self.horizon = horizon
        self.epochs = epochs

    def collect(self):
        obs = torch.randn(8)
        for _ in range(self.horizon):
            with torch.no_grad():
                dist, value = self.model(obs.unsqueeze(0))
                action = dist.sample()
            self.storage.push(obs, action.squeeze(0), dist.log_prob(action).squeeze(0), random.random(), value.squeeze(0))
            obs = torch.randn(8)

    def update(self):
        batch = self.storage.finalize()
        for _ in range(self.epochs):
            dist, values = self.model(batch.obs)
            loss = policy_loss(dist.log_prob(batch.actions), batch) + 0.5 * value_loss(values, batch)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        self.storage.reset()


if __name__ == "__main__":
    agent = PPO()
    for it in range(3):
        agent.collect()
        agent.update()
