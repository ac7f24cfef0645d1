from dataclasses import dataclass


@dataclass
class EmbedderConfig:
    n_mels: int = 40
    d_model: int = 64
    n_heads: int = 4
    n_speakers: int = 12
    dropout: float = 0.1


@dataclass
class TrainConfig:
    batch_size: int = 8
    frames: int = 50
    steps: int = 3
    lr: float = 1e-3
    seed: int = 7
