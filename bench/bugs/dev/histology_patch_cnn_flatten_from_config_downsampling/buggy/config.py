from dataclasses import dataclass, field
from typing import Tuple


@dataclass
class DataConfig:
    patch_size: int = 96
    mean: Tuple[float, float, float] = (0.70, 0.54, 0.69)
    std: Tuple[float, float, float] = (0.15, 0.20, 0.14)
    n_train: int = 64
    n_valid: int = 16


@dataclass
class ModelConfig:
    width: int = 32
    n_stages: int = 3
    hidden: int = 128
    dropout: float = 0.3
    n_classes: int = 2


@dataclass
class Config:
    data: DataConfig = field(default_factory=DataConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    batch_size: int = 8
    epochs: int = 1
    lr: float = 3e-4
