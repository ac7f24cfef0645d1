from dataclasses import dataclass


@dataclass
class Config:
    vocab_size: int = 500
    embed_dim: int = 32
    hidden_size: int = 48
    num_layers: int = 2
    num_classes: int = 2
    dropout: float = 0.2
    batch_size: int = 8
    seq_len: int = 30
    epochs: int = 2
    lr: float = 1e-3
