from dataclasses import dataclass


@dataclass
class ExperimentConfig:
    num_graphs: int = 24
    max_atoms: int = 9
    atom_features: int = 11
    hidden: int = 32
    layers: int = 2
    batch_size: int = 8
    epochs: int = 3
    max_lr: float = 3e-3
    weight_decay: float = 1e-5
    seed: int = 7
