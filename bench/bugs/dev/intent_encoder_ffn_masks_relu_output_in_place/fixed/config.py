from dataclasses import dataclass


@dataclass
class ModelConfig:
    vocab_size: int = 200
    max_len: int = 16
    d_model: int = 32
    n_heads: int = 4
    d_ff: int = 64
    n_layers: int = 2
    num_intents: int = 6
    dropout: float = 0.1
    pad_id: int = 0


@dataclass
class TrainConfig:
    epochs: int = 2
    batch_size: int = 8
    lr: float = 3e-4
    seed: int = 7
