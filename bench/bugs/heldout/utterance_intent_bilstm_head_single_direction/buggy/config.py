from dataclasses import dataclass, field


@dataclass
class ModelConfig:
    vocab_size: int = 120
    embed_dim: int = 24
    hidden: int = 32
    num_layers: int = 1
    bidirectional: bool = True
    num_intents: int = 5
    dropout: float = 0.1


@dataclass
class TrainConfig:
    epochs: int = 2
    batch_size: int = 8
    lr: float = 3e-3
    seq_len: int = 12
    n_utterances: int = 48
    model: ModelConfig = field(default_factory=ModelConfig)
