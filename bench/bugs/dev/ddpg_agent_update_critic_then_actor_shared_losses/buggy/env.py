import numpy as np


class PointMass:
    """1-D point mass pushed towards the origin; a tiny stand-in for Pendulum."""

    obs_dim, act_dim = 3, 1

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.pos, self.vel, self.t = self.rng.uniform(-1, 1), 0.0, 0
        return self._obs()

    def _obs(self):
        return np.array([self.pos, self.vel, self.t / 50], dtype=np.float32)

    def step(self, action):
        self.vel = 0.9 * self.vel + 0.1 * float(action[0])
        self.pos += 0.1 * self.vel
        self.t += 1
        reward = -(self.pos ** 2) - 0.01 * float(action[0]) ** 2
        return self._obs(), reward, self.t >= 50
