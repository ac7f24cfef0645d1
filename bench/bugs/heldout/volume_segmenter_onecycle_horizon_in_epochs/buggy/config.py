from dataclasses import dataclass


@dataclass
class TrainConfig:
    max_epoch: int = 3
    steps_per_epoch: int = 4
    batch_size: int = 2
    patch: int = 8
    lr: float = 1e-3
    scheduler: str = "onecycle"
    weight_decay: float = 1e-4
