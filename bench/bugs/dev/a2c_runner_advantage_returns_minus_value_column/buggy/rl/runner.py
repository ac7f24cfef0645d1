import logging

import numpy as np
import torch

from rl.policy import ActorCritic
from rl.utils import discounted_returns

logger = logging.getLogger(__name__)


class A2CRunner:
    def __init__(self, env, model: ActorCritic, n_steps: int = 16, gamma: float = 0.97,
                 value_coef: float = 0.5, entropy_coef: float = 0.01, lr: float = 7e-4):
        self.env = env
        self.model = model
        self.n_steps = n_steps
        self.gamma = gamma
        self.value_coef = value_coef
        self.entropy_coef = entropy_coef
        self.optimizer = torch.optim.RMSprop(model.parameters(), lr=lr, alpha=0.99, eps=1e-5)
        self.obs = env.reset()
        self.episode_return = 0.0
        self.finished = []

    def collect(self):
        log_probs, values, entropies, rewards, dones = [], [], [], [], []
        for _ in range(self.n_steps):
            dist, value = self.model(torch.as_tensor(self.obs, dtype=torch.float32))
            action = dist.sample()
            self.obs, reward, done = self.env.step(action.item())
            self.episode_return += reward
            if done:
                self.finished.append(self.episode_return)
                self.episode_return = 0.0
                self.obs = self.env.reset()
            log_probs.append(dist.log_prob(action))
            entropies.append(dist.entropy())
            values.append(value)
            rewards.append(reward)
            dones.append(done)
        with torch.no_grad():
            _, last_value = self.model(torch.as_tensor(self.obs, dtype=torch.float32))
        return torch.stack(log_probs), torch.stack(values), torch.stack(entropies), rewards, dones, last_value.item()

    def update(self):
        log_probs, values, entropies, rewards, dones, bootstrap = self.collect()
        returns = discounted_returns(rewards, dones, bootstrap, self.gamma)

        advantages = returns - values.detach()
        policy_loss = -(log_probs * advantages).mean()
        value_loss = (returns - values.squeeze(-1)).pow(2).mean()
        loss = policy_loss + self.value_coef * value_loss - self.entropy_coef * entropies.mean()

        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 0.5)
        self.optimizer.step()
        return {"policy": policy_loss.item(), "value": value_loss.item()}

    def recent_return(self) -> float:
        return float(np.mean(self.finished[-5:])) if self.finished else float("nan")
