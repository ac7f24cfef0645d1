from dataclasses import dataclass


@dataclass
class EncoderConfig:
    n_channels: int = 6
    d_model: int = 32
    n_heads: int = 4
    max_len: int = 48
    n_classes: int = 5
    dropout: float = 0.1


@dataclass
class TrainConfig:
    batch_size: int = 4
    lr: float = 3e-4
    epochs: int = 1
    seed: int = 0
