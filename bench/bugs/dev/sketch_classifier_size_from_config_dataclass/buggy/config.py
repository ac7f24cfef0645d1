from dataclasses import dataclass, field


@dataclass
class DataConfig:
    img_size: int = 48
    channels: int = 1
    n_train: int = 16


@dataclass
class ExperimentConfig:
    data: DataConfig = field(default_factory=DataConfig)
    num_classes: int = 6
    width: int = 16
    batch_size: int = 4
    lr: float = 1e-3
    epochs: int = 1
