from dataclasses import dataclass


@dataclass
class SegConfig:
    n_tiles: int = 100
    tile_size: int = 32
    batch_size: int = 16
    epochs: int = 2
    max_lr: float = 3e-3
    base_channels: int = 16
