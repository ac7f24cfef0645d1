from dataclasses import dataclass, field


@dataclass
class TrainArgs:
    n_molecules: int = 96
    n_descriptors: int = 24
    hidden_size: int = 64
    depth: int = 2
    dropout: float = 0.1
    epochs: int = 3
    batch_size: int = 16
    lr: float = 1e-3
    seed: int = 0
    device: str = "mps"
    targets: list = field(default_factory=lambda: ["logS"])
