import random
from collections import deque

import numpy as np
import torch


class ReplayBuffer:
    def __init__(self, capacity: int, seed: int = 0):
        self.memory = deque(maxlen=capacity)
        self.rng = random.Random(seed)

    def push(self, obs, action, reward, next_obs, done):
        self.memory.append((obs, action, reward, next_obs, done))

    def __len__(self):
        return len(self.memory)

    def sample(self, batch_size: int):
        batch = self.rng.sample(self.memory, batch_size)
        obs, actions, rewards, next_obs, dones = zip(*batch)
        obs = torch.from_numpy(np.stack(obs)).float()
        next_obs = torch.from_numpy(np.stack(next_obs)).float()
        # actions come back as a column so they can index the Q table directly
        actions = torch.from_numpy(np.array(actions, dtype=np.int64)[:, None])
        rewards = torch.tensor(rewards, dtype=torch.float32)
        dones = torch.tensor(dones, dtype=torch.float32)
        return obs, actions, rewards, next_obs, dones
