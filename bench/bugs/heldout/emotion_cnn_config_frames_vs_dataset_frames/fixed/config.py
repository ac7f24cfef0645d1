from dataclasses import dataclass, field


@dataclass
class ModelConfig:
    n_mfcc: int = 40
    n_frames: int = 94
    conv_channels: list = field(default_factory=lambda: [8, 16, 32])
    n_emotions: int = 8
    dropout: float = 0.3
