from dataclasses import dataclass


@dataclass
class ProcessorConfig:
    num_class: int = 5
    num_joints: int = 10
    frames: int = 16
    num_samples: int = 40
    batch_size: int = 8
    num_epoch: int = 2
    base_lr: float = 0.05
    loss: str = "cross_entropy"
    seed: int = 1
