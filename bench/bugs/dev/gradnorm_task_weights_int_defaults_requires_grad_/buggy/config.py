from dataclasses import dataclass, field
from typing import List


@dataclass
class MultiTaskConfig:
    in_features: int = 12
    shared_dim: int = 32
    tasks: List[str] = field(default_factory=lambda: ["depth", "normals"])
    task_weights: List[int] = field(default_factory=lambda: [1, 1])
    alpha: float = 1.5
    lr: float = 1e-3
    weight_lr: float = 1e-2
    steps: int = 20
    batch_size: int = 32
    seed: int = 0
