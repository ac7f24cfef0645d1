from dataclasses import dataclass


@dataclass
class VAEConfig:
    vocab_size: int = 120
    embedding_size: int = 32
    hidden_size: int = 48
    latent_size: int = 16
    num_layers: int = 1
    bidirectional: bool = True
    max_sequence_length: int = 12
    batch_size: int = 8
    learning_rate: float = 1e-3
    epochs: int = 2
    num_samples: int = 4
