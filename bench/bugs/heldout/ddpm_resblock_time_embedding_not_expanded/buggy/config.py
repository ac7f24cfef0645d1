from dataclasses import dataclass


@dataclass
class DiffusionConfig:
    image_size: int = 16
    channels: int = 1
    base_channels: int = 32
    time_dim: int = 64
    timesteps: int = 100
    beta_start: float = 1e-4
    beta_end: float = 0.02
    batch_size: int = 4
    lr: float = 2e-4
    steps: int = 3
