from dataclasses import dataclass


@dataclass
class Config:
    latent_dim: int = 16
    image_dim: int = 48
    hidden: int = 64
    micro_batch: int = 4
    grad_accum_steps: int = 4
    steps: int = 16
    lr: float = 2e-4
    clip: float = 1.0
