from dataclasses import dataclass, field


@dataclass
class TrainConfig:
    tile: int = 32
    n_train: int = 48
    n_valid: int = 16
    batch_size: int = 8
    lr: float = 1e-3
    weight_decay: float = 1e-4
    epochs: int = 2
    widths: tuple = (16, 32, 64)
    num_classes: int = 2
    seed: int = 0
    log_every: int = 4
