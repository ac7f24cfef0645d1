from dataclasses import dataclass, field
from typing import List


@dataclass
class NeckConfig:
    channels: int = 16
    num_levels: int = 3
    # one learnable weight per input of the weighted fusion, all inputs equal at the start
    fusion_init: List[int] = field(default_factory=lambda: [1, 1, 1])
    eps: float = 1e-4


@dataclass
class TrainConfig:
    neck: NeckConfig = field(default_factory=NeckConfig)
    num_classes: int = 5
    lr: float = 1e-3
    steps: int = 4
    batch_size: int = 4
