from dataclasses import dataclass, field


@dataclass
class CodecConfig:
    sample_rate: int = 8000
    clip_len: int = 256
    channels: int = 16
    latent: int = 8
    stride: int = 4
    batch_size: int = 4
    steps: int = 3
    lr: float = 3e-4
    seed: int = 0
    # weight of each term of the generator objective, by registry name
    loss_weights: dict = field(default_factory=lambda: {"waveform": 1.0, "mel": 15.0})
