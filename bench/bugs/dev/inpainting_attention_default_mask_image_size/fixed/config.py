from dataclasses import dataclass


@dataclass
class InpaintConfig:
    image_size: int = 64
    base_channels: int = 16
    patch: int = 3
    softmax_scale: float = 10.0
    batch_size: int = 4
    iterations: int = 2
    lr: float = 1e-4
