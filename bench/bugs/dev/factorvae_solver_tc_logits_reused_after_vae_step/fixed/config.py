from dataclasses import dataclass


@dataclass
class FactorVAEConfig:
    x_dim: int = 64
    z_dim: int = 10
    hidden: int = 128
    gamma: float = 6.4
    lr_vae: float = 1e-4
    lr_D: float = 1e-4
    beta1_D: float = 0.5
    beta2_D: float = 0.9
    batch_size: int = 32
    max_iter: int = 6
    print_iter: int = 2
    seed: int = 1
