import logging
import math
import random

import torch
import torch.nn.functional as F

from config import AgentConfig
from networks import QNetwork
from replay import ReplayBuffer

log = logging.getLogger("dqn")


class DQNAgent:
    def __init__(self, cfg: AgentConfig):
        self.cfg = cfg
        self.q_net = QNetwork(cfg.obs_dim, cfg.n_actions, cfg.hidden)
        self.target_net = QNetwork(cfg.obs_dim, cfg.n_actions, cfg.hidden)
        self.target_net.load_state_dict(self.q_net.state_dict())
        self.target_net.eval()
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=cfg.lr)
        self.buffer = ReplayBuffer(cfg.buffer_size)
        self.steps = 0
        self.updates = 0

    def epsilon(self) -> float:
        cfg = self.cfg
        return cfg.eps_end + (cfg.eps_start - cfg.eps_end) * math.exp(-self.steps / cfg.eps_decay)

    def act(self, obs) -> int:
        self.steps += 1
        if random.random() < self.epsilon():
            return random.randrange(self.cfg.n_actions)
        with torch.no_grad():
            q = self.q_net(torch.as_tensor(obs, dtype=torch.float32).unsqueeze(0))
        return int(q.argmax(dim=1).item())

    def learn(self):
        if len(self.buffer) < self.cfg.warmup:
            return None
        obs, actions, rewards, next_obs, dones = self.buffer.sample(self.cfg.batch_size)

        q_taken = self.q_net(obs).gather(1, actions)
        with torch.no_grad():
            next_q = self.target_net(next_obs).max(dim=1).values
            td_target = rewards + self.cfg.gamma * next_q * (1.0 - dones)

        loss = F.mse_loss(q_taken, td_target)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.q_net.parameters(), 10.0)
        self.optimizer.step()

        self.updates += 1
        if self.updates % self.cfg.target_sync == 0:
            self.target_net.load_state_dict(self.q_net.state_dict())
            log.debug("synced target net at update %d", self.updates)
        return loss.item()
