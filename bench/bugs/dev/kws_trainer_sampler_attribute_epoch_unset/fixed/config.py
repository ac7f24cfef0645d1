from dataclasses import dataclass


@dataclass
class Hparams:
    n_mels: int = 20
    frames: int = 32
    n_keywords: int = 6
    batch_size: int = 16
    epochs: int = 3
    lr: float = 2e-3
    world_size: int = 1
    rank: int = 0
    seed: int = 1234
