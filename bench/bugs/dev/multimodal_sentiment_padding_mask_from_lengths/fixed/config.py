from dataclasses import dataclass


@dataclass
class FusionConfig:
    text_dim: int = 24
    audio_dim: int = 10
    d_model: int = 32
    heads: int = 4
    max_len: int = 50
    batch_size: int = 6
    epochs: int = 2
