from dataclasses import dataclass


@dataclass
class ReIDConfig:
    num_ids: int = 8
    imgs_per_id: int = 4
    feat_dim: int = 64
    margin: float = 0.3
    lr: float = 3e-4
    epochs: int = 2
    iters_per_epoch: int = 3
