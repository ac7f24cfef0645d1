from dataclasses import dataclass


@dataclass
class AgentConfig:
    obs_dim: int = 6
    n_actions: int = 4
    hidden: int = 64
    gamma: float = 0.99
    lr: float = 5e-4
    batch_size: int = 32
    buffer_size: int = 2_000
    target_sync: int = 50
    warmup: int = 64
    eps_start: float = 1.0
    eps_end: float = 0.05
    eps_decay: int = 300
