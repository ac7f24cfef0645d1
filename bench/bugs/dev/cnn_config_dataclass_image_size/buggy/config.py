from dataclasses import dataclass, field


@dataclass
class Config:
    image_size: int = 64
    channels: tuple = (32, 64, 128)
    num_classes: int = 5
    lr: float = 3e-4
    batch_size: int = 4
    epochs: int = 1
    extra: dict = field(default_factory=dict)
