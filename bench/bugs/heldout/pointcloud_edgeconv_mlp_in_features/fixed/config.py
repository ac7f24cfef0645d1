from dataclasses import dataclass, field


@dataclass
class DGCNNConfig:
    num_points: int = 64
    num_classes: int = 5
    k: int = 6
    widths: list = field(default_factory=lambda: [32, 32, 64])
    emb_dims: int = 128
    batch_size: int = 4
    epochs: int = 2
    lr: float = 1e-3
