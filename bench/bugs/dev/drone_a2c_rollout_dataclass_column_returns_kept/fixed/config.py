from dataclasses import dataclass


@dataclass
class A2CConfig:
    obs_dim: int = 4
    n_actions: int = 3
    hidden: int = 32
    n_steps: int = 20
    updates: int = 12
    gamma: float = 0.98
    lam: float = 0.95
    lr: float = 1e-3
    seed: int = 9
