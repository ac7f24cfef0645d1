from dataclasses import dataclass


@dataclass
class PPOConfig:
    n_jobs: int = 6
    n_machines: int = 3
    hidden: int = 32
    lr: float = 2e-3
    gamma: float = 1.0
    eps_clip: float = 0.2
    k_epochs: int = 2
    vloss_coef: float = 1.0
    ploss_coef: float = 2.0
    entloss_coef: float = 0.01
    episodes: int = 12
    seed: int = 200
