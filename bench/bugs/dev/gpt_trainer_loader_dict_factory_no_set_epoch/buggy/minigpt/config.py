from dataclasses import dataclass


@dataclass
class TrainConfig:
    vocab_size: int = 50
    block_size: int = 16
    n_embd: int = 32
    n_head: int = 4
    n_layer: int = 1
    batch_size: int = 8
    num_train: int = 64
    num_val: int = 16
    max_epochs: int = 3
    learning_rate: float = 3e-4
    weight_decay: float = 0.1
    grad_norm_clip: float = 1.0
    rank: int = 0
    world_size: int = 1
    seed: int = 1337
