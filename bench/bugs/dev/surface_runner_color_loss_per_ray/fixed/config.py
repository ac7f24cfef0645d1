from dataclasses import dataclass


@dataclass
class RunnerConfig:
    n_rays: int = 64
    n_samples: int = 16
    hidden: int = 32
    lr: float = 5e-4
    iters: int = 6
    eikonal_weight: float = 0.1
    log_every: int = 2
