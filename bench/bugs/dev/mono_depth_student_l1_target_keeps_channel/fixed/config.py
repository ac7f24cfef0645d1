from dataclasses import dataclass


@dataclass
class TrainConfig:
    epochs: int = 2
    batch_size: int = 4
    lr: float = 1e-3
    width: int = 16
    image_size: int = 24
    log_every: int = 4
    seed: int = 7
