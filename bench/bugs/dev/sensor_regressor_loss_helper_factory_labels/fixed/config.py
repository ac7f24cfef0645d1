from dataclasses import dataclass, field


@dataclass
class TrainConfig:
    n_samples: int = 512
    n_features: int = 12
    hidden: list = field(default_factory=lambda: [64, 32])
    dropout: float = 0.1
    lr: float = 3e-3
    batch_size: int = 64
    epochs: int = 3
    seed: int = 7
