from dataclasses import dataclass, field
from typing import List


@dataclass
class TurbineConfig:
    features: List[str] = field(default_factory=lambda: ["wind_speed", "wind_dir_sin", "wind_dir_cos", "air_density",
                                                         "rotor_rpm", "pitch_angle"])
    hidden_sizes: List[int] = field(default_factory=lambda: [64, 32])
    dropout: float = 0.1
    batch_size: int = 32
    epochs: int = 3
    lr: float = 2e-3
    weight_decay: float = 1e-4
    n_samples: int = 256
