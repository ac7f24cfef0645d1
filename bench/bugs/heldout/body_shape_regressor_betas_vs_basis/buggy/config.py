from dataclasses import dataclass


@dataclass
class ShapeConfig:
    num_vertices: int = 64
    num_betas: int = 10
    # components stored in the basis file; the regressor only predicts the first num_betas
    basis_size: int = 16
    feat_dim: int = 32
    hidden: int = 64
    lr: float = 1e-3
    epochs: int = 2
    batch_size: int = 4
