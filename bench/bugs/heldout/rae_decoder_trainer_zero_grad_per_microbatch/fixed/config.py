from dataclasses import dataclass


@dataclass
class TrainConfig:
    latent_dim: int = 16
    image_dim: int = 48
    global_batch: int = 16
    micro_batch: int = 4
    lr: float = 1e-3
    steps: int = 3
    grad_clip: float = 1.0
